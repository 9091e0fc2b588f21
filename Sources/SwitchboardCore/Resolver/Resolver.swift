/// The resolver: URL → rewrite rules → route → ``Resolution`` (design.md §3–§5).
///
/// Immutable and `Sendable`: a server holds one per snapshot and swaps it on reload.
/// ```swift
/// var builder = ResolverBuilder(policy: AppLinkPolicy(schemes: ["myapp"], domains: ["shop.example.com"]))
/// builder.add(Route(id: "product.detail", module: "product", patterns: ["/product/:id<int>"]))
/// builder.add(rules: [RewriteRule(id: "web", match: #"^https://shop\.example\.com/p/(\d+)"#, target: "myapp://product/$1")])
/// let resolver = try builder.build()
/// let resolution = try resolver.resolve("https://shop.example.com/p/42")
/// // resolution.match?.route.id == "product.detail", resolution.ruleIDs == ["web"]
/// ```
public struct Resolver: Sendable {
    /// The route table.
    public let router: Router
    /// The rewrite rules, in the order they run.
    public let rewriter: RewriteEngine
    /// Which URLs are app links.
    public let policy: AppLinkPolicy
    /// The router's tables and the fallback in one object, which the byte path reads unretained.
    let matchTables: MatchTables
    /// Template for unmatched URLs.
    var fallback: RewriteTemplate? { matchTables.fallback }

    package init(router: Router, rewriter: RewriteEngine, policy: AppLinkPolicy, fallback: RewriteTemplate?) {
        self.router = router
        self.rewriter = rewriter
        self.policy = policy
        matchTables = MatchTables(router: router, fallback: fallback)
    }

    /// Resolves one URL and also reports what the rewrite pass did (for metrics).
    ///
    /// - Parameters:
    ///   - text: the URL.
    ///   - context: the asking app (platform, version, device) and the time, for conditional
    ///     rules and `minAppVersion`.
    /// - Throws: ``ResolveError`` (`invalid_url`) when the URL is malformed, or when the URL
    ///   to route has a bad escape or invalid UTF-8 in its path or query.
    public func resolveWithOutcome(
        _ text: String, context: RequestContext = RequestContext()
    ) throws(ResolveError) -> (Resolution, RewriteOutcome) {
        let input: ParsedURL
        do {
            input = try ParsedURL.parse(text)
        } catch {
            throw ResolveError(message: "invalid URL: \(error.description)")
        }
        let outcome = rewriter.rewrite(input, context: context)
        let final = outcome.url
        let match: RouteMatch?
        let constraintLimitHits: Int
        var params: [(name: String, value: JSONValue)] = []
        do {
            (match, constraintLimitHits) = try router.matchCountingLimits(final, isAppLink: policy.isAppLink(final))
            if let match {
                params = ParamsMerger.merge(
                    defaults: match.route.defaultParams, query: try final.queryItems(), captures: match.captures)
            }
        } catch {
            throw ResolveError(
                message: outcome.didRewrite
                    ? "the rewritten URL \(final.string) is invalid: \(error.description)"
                    : "invalid URL: \(error.description)")
        }
        var fallbackURL: String?
        if match == nil, let fallback {
            var bytes = input.string
            fallbackURL = bytes.withUTF8 { fallback.expand(url: input, subject: $0, match: nil) }
        }
        let resolution = Resolution(
            url: text, rewrittenURL: outcome.didRewrite ? final.string : nil, ruleIDs: outcome.firedRuleIDs,
            match: match, params: params, webURL: match?.route.web?.expand(params),
            openWeb: Self.isBelowMinimum(match?.route, context), fallback: fallbackURL,
            constraintLimitHits: constraintLimitHits)
        return (resolution, outcome)
    }

    /// Resolves one URL.
    /// - Throws: ``ResolveError`` (`invalid_url`).
    public func resolve(_ text: String, context: RequestContext = RequestContext()) throws(ResolveError) -> Resolution {
        try resolveWithOutcome(text, context: context).0
    }

    /// Whether the asking app is older than the route's `minAppVersion` (an unknown version is not).
    static func isBelowMinimum(_ route: Route?, _ context: RequestContext) -> Bool {
        guard let route, route.web != nil, let minimum = route.minAppVersion.flatMap(SemanticVersion.init),
            let version = context.appVersion
        else { return false }
        return version < minimum
    }
}
