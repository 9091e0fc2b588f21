/// Which endpoints a listener answers (design.md §2 "Listeners and TLS"): one request path and
/// one ``EndpointTable`` serve every listener; the scope only hides endpoints.
package enum ListenerScope: Sendable, Hashable {
    /// Every endpoint: the one listener when no admin listener is set, or the admin listener.
    case all
    /// The endpoints for everyone (``Endpoint/Audience-swift.enum/everyone``): the public
    /// listener beside an admin listener. The operator endpoints answer `404` there, as if they
    /// did not exist, before any token is asked for.
    case publicOnly

    /// Whether an endpoint for `audience` answers on this listener.
    func serves(_ audience: Endpoint.Audience) -> Bool {
        self == .all || audience == .everyone
    }
}
