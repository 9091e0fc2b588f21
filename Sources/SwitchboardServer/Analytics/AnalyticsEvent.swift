import SwitchboardCore
import SwitchboardHTTP

/// What one resolution leaves for analytics, as it came: references to what the request
/// already holds (no copy, no parsing), read and counted when its lane is folded.
struct AnalyticsEvent {
    /// Who asked, and for which link.
    enum Asker {
        /// A `GET /resolve` request: its platform, app version and link are read from its query
        /// and headers when folded.
        case request(HTTPRequest)
        /// A link already read from its request (`/open`, a batch), with the app that asked.
        case resolved(url: String, platform: String?, appVersion: SemanticVersion?)
    }

    var asker: Asker
    /// The matched route's id; `nil` when nothing matched or the link was refused.
    var routeID: String?
    var firedRuleIDs: [String]
    /// The answer's HTTP status.
    var status: Int
}
