/// Why a URL went where it went: each rewrite rule tried and the router's walk
/// (`GET /resolve?explain=1`, `switchboard resolve --explain`).
public struct ResolutionTrace: Sendable, Hashable {
    /// The rules tried, in order; rules after one that fired with `last: true` are not tried.
    public let rules: [RuleTrace]
    /// The router's walk over the final URL.
    public let router: RouterTrace

    /// The trace as JSON: `{"rules": [...], "router": {...}}`.
    public var json: JSONValue {
        .object([("rules", .array(rules.map(\.json))), ("router", router.json)])
    }
}
