/// The resolver: URL → rewrite rules → route → the `/resolve` answer (design.md §3–§5).
///
/// Immutable and `Sendable`: a server holds one per snapshot and swaps it on reload. Every way
/// to resolve runs the same single pass over the URL's bytes; they differ in what they keep:
/// the body's bytes (``resolve(_:context:appendingBodyTo:)``, what a server sends), a
/// ``Resolution`` value (``resolve(_:context:)``), or that value with the trace of every
/// decision (``explain(_:context:)``).
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
    /// The router's tables and the fallback in one object, which the pass reads unretained.
    let matchTables: MatchTables
    /// Template for unmatched URLs.
    var fallback: RewriteTemplate? { matchTables.fallback }

    /// Room reserved for a body: most answers fit, so the buffer is allocated once.
    package static let bodyCapacity = 512

    package init(router: Router, rewriter: RewriteEngine, policy: AppLinkPolicy, fallback: RewriteTemplate?) {
        self.router = router
        self.rewriter = rewriter
        self.policy = policy
        matchTables = MatchTables(router: router, rewriter: rewriter, policy: policy, fallback: fallback)
    }

    /// Resolves one URL into a value: where it goes, how it got there, and its `/resolve` body.
    ///
    /// - Parameters:
    ///   - text: the URL.
    ///   - context: the asking app (platform, version, device) and the time, for conditional
    ///     rules and `minAppVersion`.
    /// - Throws: ``ResolveError`` (`invalid_url`) when the URL is malformed, or when the URL
    ///   to route has a bad escape or invalid UTF-8 in its path or query.
    public func resolve(_ text: String, context: RequestContext = RequestContext()) throws(ResolveError) -> Resolution {
        var collector = ResolutionCollector(router: router)
        let (summary, body) = try resolve(text, context: context, observer: &collector)
        return collector.resolution(of: text, summary: summary, body: body)
    }

    /// Resolves `text` and explains the answer: the resolution exactly as ``resolve(_:context:)``
    /// gives it, and the trace of every rule tried and of the router's walk, both from the
    /// same pass.
    /// - Throws: ``ResolveError`` like ``resolve(_:context:)``.
    public func explain(
        _ text: String, context: RequestContext = RequestContext()
    ) throws(ResolveError) -> (Resolution, ResolutionTrace) {
        var recorder = ExplainRecorder(resolver: self, context: context)
        let (summary, body) = try resolve(text, context: context, observer: &recorder)
        return (recorder.collector.resolution(of: text, summary: summary, body: body), recorder.trace)
    }

    /// Resolves `text` and appends the `/resolve` body to `buffer`. Keep one buffer and empty
    /// it (`removeAll(keepingCapacity: true)`) between calls: a request that no rule rewrites
    /// then allocates nothing.
    ///
    /// ```swift
    /// var body: [UInt8] = []
    /// for url in urls {
    ///     body.removeAll(keepingCapacity: true)
    ///     let summary = try resolver.resolve(url, appendingBodyTo: &body)
    ///     // summary.status, summary.routeID; body holds the JSON
    /// }
    /// ```
    /// - Returns: the status, route and rules of the answer, besides its body.
    /// - Throws: ``ResolveError`` like ``resolve(_:context:)``; nothing is appended then.
    public func resolve(
        _ text: String, context: RequestContext = RequestContext(), appendingBodyTo buffer: inout [UInt8]
    ) throws(ResolveError) -> ResolveSummary {
        var writer = JSONWriter(appendingTo: &buffer)
        defer { writer.finish(into: &buffer) }
        return try resolve(text, context: context, appendingJSONTo: &writer)
    }

    /// Resolves `text` and appends the `/resolve` body to `writer`.
    /// - Throws: ``ResolveError`` like ``resolve(_:context:)``; nothing is appended then.
    package func resolve(
        _ text: String, context: RequestContext = RequestContext(), appendingJSONTo writer: inout JSONWriter
    ) throws(ResolveError) -> ResolveSummary {
        var observer = UnobservedResolve()
        return try resolve(text, context: context, appendingJSONTo: &writer, observer: &observer)
    }

    /// Resolves the URL whose UTF-8 is `utf8` and appends the `/resolve` body to `writer`: a
    /// caller that decoded the URL into a buffer of its own makes no string of it.
    ///
    /// - Parameter utf8: valid UTF-8 (the caller has checked it).
    /// - Throws: ``ResolveError`` like ``resolve(_:context:)``; nothing is appended then.
    package func resolve(
        utf8: UnsafeBufferPointer<UInt8>, context: RequestContext = RequestContext(), appendingJSONTo writer: inout JSONWriter
    ) throws(ResolveError) -> ResolveSummary {
        var observer = UnobservedResolve()
        let tables = Unmanaged.passUnretained(matchTables)
        let result = withUnsafePointer(to: context) { context in
            Swift.Result { () throws(ResolveError) -> ResolveSummary in
                try Self.resolve(utf8: utf8, context: context, appendingJSONTo: &writer, observer: &observer, tables: tables)
            }
        }
        return try result.get()
    }

    /// The pass over `text` with `observer`, into a body of its own.
    private func resolve<Observer: ResolveObserver>(
        _ text: String, context: RequestContext, observer: inout Observer
    ) throws(ResolveError) -> (ResolveSummary, [UInt8]) {
        var writer = JSONWriter(capacity: Self.bodyCapacity)
        let summary = try resolve(text, context: context, appendingJSONTo: &writer, observer: &observer)
        return (summary, writer.bytes)
    }

    /// The pass over `text` with `observer`, appending to `writer`. Its closures capture only
    /// pointers and the unretained tables: capturing `self` or the context would copy them, and
    /// retain everything they hold, on every request.
    private func resolve<Observer: ResolveObserver>(
        _ text: String, context: RequestContext, appendingJSONTo writer: inout JSONWriter, observer: inout Observer
    ) throws(ResolveError) -> ResolveSummary {
        var utf8 = text
        let tables = Unmanaged.passUnretained(matchTables)
        let result = withUnsafePointer(to: context) { context in
            utf8.withUTF8 { bytes in
                Swift.Result { () throws(ResolveError) -> ResolveSummary in
                    try Self.resolve(utf8: bytes, context: context, appendingJSONTo: &writer, observer: &observer, tables: tables)
                }
            }
        }
        return try result.get()
    }
}
