/// The resolve observer behind ``Resolver/explain(_:context:)``: the resolution, every rule
/// the pass visited and the router's walk, all from the pass that wrote the answer.
struct ExplainRecorder: ResolveObserver {
    static var visitsEveryRule: Bool { true }
    private var rules: RuleTraceRecorder
    private(set) var collector: ResolutionCollector
    private let router: Router
    private var routerTrace: RouterTrace?

    init(resolver: Resolver, context: RequestContext) {
        rules = RuleTraceRecorder(engine: resolver.rewriter, context: context)
        collector = ResolutionCollector(router: resolver.router)
        router = resolver.router
    }

    /// The trace of the pass.
    var trace: ResolutionTrace {
        ResolutionTrace(
            rules: rules.traces,
            router: routerTrace
                ?? RouterTrace(url: "", isAppLink: false, segments: [], steps: [], pattern: nil, routeID: nil, error: nil))
    }

    mutating func ruledOutByPrefilter(_ rule: Int, subject: UnsafeBufferPointer<UInt8>) {
        rules.ruledOutByPrefilter(rule, subject: subject)
    }

    mutating func conditionFailed(_ rule: Int, subject: UnsafeBufferPointer<UInt8>) {
        rules.conditionFailed(rule, subject: subject)
    }

    mutating func didNotMatch(_ rule: Int, subject: UnsafeBufferPointer<UInt8>) {
        rules.didNotMatch(rule, subject: subject)
    }

    mutating func hitLimit(_ rule: Int, subject: UnsafeBufferPointer<UInt8>) {
        rules.hitLimit(rule, subject: subject)
    }

    mutating func failed(_ rule: Int, subject: UnsafeBufferPointer<UInt8>, error: RewriteOutcome.RuleError) {
        rules.failed(rule, subject: subject, error: error)
    }

    mutating func fired(
        _ rule: Int, subject: UnsafeBufferPointer<UInt8>, match: RegexMatch, output: UnsafeBufferPointer<UInt8>
    ) {
        rules.fired(rule, subject: subject, match: match, output: output)
        collector.fired(rule, subject: subject, match: match, output: output)
    }

    func makeWalk(table: TrieTable, request: TrieTable.Request) -> RouterTraceRecorder {
        RouterTraceRecorder(table: table, request: request)
    }

    mutating func routed(
        _ walk: RouterTraceRecorder, url: UnsafeBufferPointer<UInt8>, isAppLink: Bool,
        segments: UnsafeBufferPointer<PathSegment>, entry: Int32
    ) {
        let found = entry >= 0 ? router.entries[Int(entry)] : nil
        routerTrace = RouterTrace(
            url: String(decoding: url, as: UTF8.self), isAppLink: isAppLink, segments: segments.map(\.string),
            steps: walk.steps, pattern: found.map(router.patternText), routeID: found.map { router.routes.id(at: Int($0.route)) },
            error: nil)
    }

    mutating func matched(route: Int, pattern: Int, params: ParamsMerge, webURL: String?, openWeb: Bool) {
        collector.matched(route: route, pattern: pattern, params: params, webURL: webURL, openWeb: openWeb)
    }

    mutating func unmatched(fallback: UnsafeBufferPointer<UInt8>?) {
        collector.unmatched(fallback: fallback)
    }
}
