/// The route a URL resolved to, with the values its pattern captured.
public struct RouteMatch: Sendable {
    /// The matched route.
    public let route: Route
    /// The pattern that matched, as registered.
    public let pattern: String
    /// Captured values, percent-decoded, in pattern order (catch-alls as `a/b/c`).
    public let captures: [(name: String, value: String)]
}
