/// Where a link goes: the answer of `GET /resolve` and `switchboard resolve` (design.md §5), as
/// values and as the body itself.
public struct Resolution: Sendable {
    /// The URL as given.
    public let url: String
    /// The URL after rewriting; `nil` when no rule fired.
    public let rewrittenURL: String?
    /// The route, when one matched.
    public let match: RouteMatch?
    /// Merged params: route defaults < query parameters < path captures.
    public let params: [(name: String, value: JSONValue)]
    /// The matched route's `web` template filled from ``params``; `nil` when it has none.
    public let webURL: String?
    /// Whether the app is older than the route's `minAppVersion` and should open ``webURL``
    /// instead of the native target.
    public let openWeb: Bool
    /// The expanded fallback template, for an unmatched URL when one is configured.
    public let fallback: String?
    /// What the status, the metrics and a cache need: the route, the rules, and the rule
    /// errors and PCRE2 limit hits of the pass.
    public let summary: ResolveSummary
    /// The response body, exactly the shape of design.md §5, as compact JSON.
    public let jsonBytes: [UInt8]

    /// Whether a route matched.
    public var matched: Bool { match != nil }
    /// The rules that fired, in order (empty when none).
    public var ruleIDs: [String] { summary.firedRuleIDs }
    /// How many route constraint regexes a PCRE2 limit stopped while routing (each counted as
    /// not accepting the segment). Not part of the body; for the metrics, and so that such an
    /// answer is not cached.
    public var constraintLimitHits: Int { summary.constraintLimitHits }

    /// The response body as a value, read back from ``jsonBytes`` (for documents that embed it).
    public var json: JSONValue {
        JSONValue(parsing: jsonBytes) ?? .null
    }

    init(
        url: String, rewrittenURL: String?, match: RouteMatch?, params: [(name: String, value: JSONValue)], webURL: String?,
        openWeb: Bool, fallback: String?, summary: ResolveSummary, jsonBytes: [UInt8]
    ) {
        self.url = url
        self.rewrittenURL = rewrittenURL
        self.match = match
        self.params = params
        self.webURL = webURL
        self.openWeb = openWeb
        self.fallback = fallback
        self.summary = summary
        self.jsonBytes = jsonBytes
    }
}

/// The resolve observer behind ``Resolver/resolve(_:context:)``: the values of the answer the
/// pass writes.
struct ResolutionCollector: ResolveObserver {
    static var visitsEveryRule: Bool { false }
    let router: Router
    private var rewrittenURL: String?
    private var match: RouteMatch?
    private var params: [(name: String, value: JSONValue)] = []
    private var webURL: String?
    private var openWeb = false
    private var fallback: String?

    init(router: Router) {
        self.router = router
    }

    mutating func fired(
        _ rule: Int, subject: UnsafeBufferPointer<UInt8>, match: RegexMatch, output: UnsafeBufferPointer<UInt8>
    ) {
        rewrittenURL = String(decoding: output, as: UTF8.self)
    }

    func makeWalk(table: TrieTable, request: TrieTable.Request) -> UnobservedWalk { UnobservedWalk() }

    mutating func matched(route: Int, pattern: Int, params: ParamsMerge, webURL: String?, openWeb: Bool) {
        match = RouteMatch(
            route: router.routes[route], pattern: router.routes.pattern(at: route, number: pattern),
            captures: params.captureValues())
        self.params = params.values()
        self.webURL = webURL
        self.openWeb = openWeb
    }

    mutating func unmatched(fallback: UnsafeBufferPointer<UInt8>?) {
        self.fallback = fallback.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The resolution of `url` the pass answered with `summary` and `body`.
    func resolution(of url: String, summary: ResolveSummary, body: [UInt8]) -> Resolution {
        Resolution(
            url: url, rewrittenURL: rewrittenURL, match: match, params: params, webURL: webURL, openWeb: openWeb,
            fallback: fallback, summary: summary, jsonBytes: body)
    }
}
