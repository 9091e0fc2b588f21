/// Why a route could not be registered.
public struct RouteRegistrationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Broad categories, stable for programs; read ``description`` for the detail.
    public enum Kind: String, Sendable, Hashable {
        /// A pattern is malformed.
        case invalidPattern = "invalid_pattern"
        /// Two routes accept exactly the same URLs.
        case conflict
        /// The route id is empty.
        case invalidID = "invalid_id"
        /// Another route already has this id.
        case duplicateID = "duplicate_id"
        /// The route's `web` template is not an absolute http(s) URL or uses an unknown param.
        case invalidWeb = "invalid_web"
        /// `minAppVersion` is not a version, or the route has no `web` to send older apps to.
        case invalidMinAppVersion = "invalid_min_app_version"
        /// Too many routes for the configured limit.
        case limitExceeded = "limit_exceeded"
    }

    /// The category of the error.
    public let kind: Kind
    /// The route being registered.
    public let routeID: String
    /// For conflicts: the route already registered.
    public let otherRouteID: String?
    /// What is wrong and how to fix it.
    public let message: String

    package init(kind: Kind, routeID: String, otherRouteID: String? = nil, message: String) {
        self.kind = kind
        self.routeID = routeID
        self.otherRouteID = otherRouteID
        self.message = message
    }

    public var description: String { "route '\(routeID)': \(message)" }
}
