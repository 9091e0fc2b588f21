/// What ``Resolver/resolve(_:context:appendingBodyTo:)`` tells about an answer besides its
/// body: what the status, the metrics and the resolve cache need.
public struct ResolveSummary: Sendable, Hashable {
    /// Whether a route matched (`200`; otherwise `404`).
    public var matched: Bool
    /// The id of the route that matched.
    public var routeID: String?
    /// The ids of the rules that fired, in order.
    public var firedRuleIDs: [String]
    /// Rules that matched but could not apply (``RewriteOutcome/errors``).
    public var ruleErrorCount: Int
    /// Rules whose regex hit a PCRE2 limit (``RewriteOutcome/limitHits``).
    public var ruleLimitHitCount: Int
    /// Route constraint regexes a PCRE2 limit stopped (``Resolution/constraintLimitHits``).
    public var constraintLimitHits: Int
    /// Whether a rule with a time window (`activeFrom`/`activeUntil`) was tried on the way: the
    /// same URL may be answered otherwise at another time.
    public var dependsOnClock: Bool = false

    /// The HTTP status of the answer.
    public var status: Int { matched ? 200 : 404 }

    /// Whether the answer is the same every time (no rule failed, no PCRE2 limit was hit, no
    /// time window was tried): what a cache may keep.
    public var isRepeatable: Bool {
        ruleErrorCount == 0 && ruleLimitHitCount == 0 && constraintLimitHits == 0 && !dependsOnClock
    }
}
