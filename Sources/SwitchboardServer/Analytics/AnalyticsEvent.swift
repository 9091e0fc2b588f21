/// What one resolution leaves for analytics: small values the endpoint already holds (the
/// route and rule ids as the resolver answered them, the platform as a code, the app version's
/// major number, the status), counted when its lane is folded. Only an unmatched link carries
/// the link itself, to be redacted and kept as an orphan then.
struct AnalyticsEvent {
    /// Where an orphan's link is, read only when folded.
    enum Link {
        /// The raw query of a `GET /resolve` request: the link is its `url` parameter.
        case query(String?)
        /// A link already read from its request (`/open`, a batch).
        case url(String)
    }

    /// The matched route's id; `nil` when nothing matched or the link was refused.
    var routeID: String?
    var firedRuleIDs: [String]
    /// The answer's HTTP status.
    var status: Int
    var platform: AnalyticsPlatform
    /// The app version's major number; `nil` when the request did not say a version.
    var major: Int?
    /// The link, for an unmatched link while orphans are kept; `nil` otherwise.
    var orphan: Link?
}
