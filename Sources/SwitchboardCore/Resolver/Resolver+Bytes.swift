extension Resolver {
    /// Resolves `text` and appends the `/resolve` body to `buffer`: the same bytes as
    /// ``resolveWithOutcome(_:context:)`` then ``Resolution/jsonBytes``, for less work. Keep
    /// one buffer and empty it (`removeAll(keepingCapacity: true)`) between calls: the common
    /// request then allocates nothing (see ``resolve(_:context:appendingJSONTo:)``).
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
    /// - Throws: ``ResolveError`` like ``resolveWithOutcome(_:context:)``; nothing is appended then.
    public func resolve(
        _ text: String, context: RequestContext = RequestContext(), appendingBodyTo buffer: inout [UInt8]
    ) throws(ResolveError) -> ResolveSummary {
        var writer = JSONWriter(appendingTo: &buffer)
        defer { writer.finish(into: &buffer) }
        return try resolve(text, context: context, appendingJSONTo: &writer)
    }

    /// Resolves `text` and appends the `/resolve` body to `writer`: the same bytes as
    /// ``resolveWithOutcome(_:context:)`` then ``Resolution/jsonBytes``, for less work.
    ///
    /// The common request (no rule fires, or one `last` rule; a route without a `web` page or
    /// no route; a handful of params) is answered from ranges into the URL's bytes, written
    /// straight into the buffer: when no rule fires nothing is allocated, given a writer with
    /// the capacity (keep one per thread and ``JSONWriter/removeAll()`` it between requests).
    /// Any other request takes the full path.
    ///
    /// - Returns: what the metrics and the cache need besides the body.
    /// - Throws: ``ResolveError`` like ``resolveWithOutcome(_:context:)``; nothing is appended then.
    package func resolve(
        _ text: String, context: RequestContext = RequestContext(), appendingJSONTo writer: inout JSONWriter
    ) throws(ResolveError) -> ResolveSummary {
        var utf8 = text
        let start = writer.count
        let summary = utf8.withUTF8 { answerCommonRequest($0, context: context, writer: &writer) }
        if let summary { return summary }
        writer.truncate(to: start)
        return try resolveFully(text, context: context, appendingJSONTo: &writer)
    }

    /// Resolves the URL whose UTF-8 is `utf8` and appends the `/resolve` body to `writer`,
    /// exactly as ``resolve(_:context:appendingJSONTo:)`` does for the same URL as a string:
    /// a caller that decoded the URL into a buffer of its own makes no string of it unless
    /// the request needs the full path.
    ///
    /// - Parameter utf8: valid UTF-8 (the caller has checked it).
    package func resolve(
        utf8: UnsafeBufferPointer<UInt8>, context: RequestContext = RequestContext(),
        appendingJSONTo writer: inout JSONWriter
    ) throws(ResolveError) -> ResolveSummary {
        let start = writer.count
        if let summary = answerCommonRequest(utf8, context: context, writer: &writer) { return summary }
        writer.truncate(to: start)
        return try resolveFully(String(decoding: utf8, as: UTF8.self), context: context, appendingJSONTo: &writer)
    }

    /// The full path of the two entries above: resolve, then write the resolution.
    private func resolveFully(
        _ text: String, context: RequestContext, appendingJSONTo writer: inout JSONWriter
    ) throws(ResolveError) -> ResolveSummary {
        let (resolution, outcome) = try resolveWithOutcome(text, context: context)
        resolution.write(to: &writer)
        return ResolveSummary(
            matched: resolution.matched, routeID: resolution.match?.route.id, firedRuleIDs: resolution.ruleIDs,
            ruleErrorCount: outcome.errors.count, ruleLimitHitCount: outcome.limitHits.count,
            constraintLimitHits: resolution.constraintLimitHits)
    }

    /// The URL given and what the rewrite pass made of it, for the first members of the body.
    private struct Input {
        /// The UTF-8 of the URL as given.
        let bytes: UnsafeBufferPointer<UInt8>
        /// The components of the URL as given, for the fallback.
        let parts: URLParts
        /// The rewritten URL and the rule that fired, when one did.
        var rewrite: (url: UnsafeBufferPointer<UInt8>, ruleID: String)?

        /// `{"matched":…,"url":…` and, after a rewrite, `"rewrittenURL"` and `"ruleIds"`.
        func writeHead(matched: Bool, to writer: inout JSONWriter) {
            writer.writeSyntax(matched ? #"{"matched":true,"url":"# : #"{"matched":false,"url":"#)
            writer.writeString(utf8: bytes)
            guard let rewrite else { return }
            writer.writeSyntax(#","rewrittenURL":"#)
            writer.writeString(utf8: rewrite.url)
            writer.writeSyntax(#","ruleIds":["#)
            writer.writeString(rewrite.ruleID)
            writer.writeSyntax("]")
        }
    }

    /// The answer to a common request, written to `writer`; `nil` (with whatever was written
    /// left for the caller to drop) when the request needs the full path. Common: no rule
    /// fires, or the first rule that matches is `last` and gives a URL that parses; then a
    /// route without a `web` page, or none.
    private func answerCommonRequest(
        _ bytes: UnsafeBufferPointer<UInt8>, context: RequestContext, writer: inout JSONWriter
    ) -> ResolveSummary? {
        guard let parts = try? URLScanner(bytes: bytes).scan() else { return nil }
        let routed: Routed
        var firedRuleIDs: [String] = []
        switch rewriter.firstMatch(on: bytes, context: context) {
        case .other:
            return nil
        case .none:
            routed = answerRouted(bytes, parts, Input(bytes: bytes, parts: parts), writer: &writer)
        case .match(let rule, let match):
            let (ids, last) = rewriter.firedAloneAndLast(ofRule: rule)
            guard last else { return nil }
            let ruleID = ids[0]
            routed = rewriter.withExpandedTarget(ofRule: rule, parts: parts, subject: bytes, match: match) { rewrittenBytes in
                guard rewrittenBytes.count <= RewriteEngine.maximumRewrittenBytes,
                    let rewrittenParts = try? URLScanner(bytes: rewrittenBytes).scan()
                else { return .fullPathNeeded }
                let input = Input(bytes: bytes, parts: parts, rewrite: (rewrittenBytes, ruleID))
                return answerRouted(rewrittenBytes, rewrittenParts, input, writer: &writer)
            }
            firedRuleIDs = ids
        }
        guard routed.code != Routed.fullPathNeeded.code else { return nil }
        return ResolveSummary(
            matched: routed.code >= 0, routeID: routed.code >= 0 ? router.routes.id(at: Int(routed.code)) : nil,
            firedRuleIDs: firedRuleIDs, ruleErrorCount: 0, ruleLimitHitCount: 0, constraintLimitHits: 0)
    }

    /// How routing went, as a plain integer, so that nothing reference-counted is copied out
    /// of the closures it passes through: the index of the route that matched, or one of the
    /// two outcomes below.
    private struct Routed {
        let code: Int32
        /// The answer says nothing matched.
        static let unmatched = Routed(code: -1)
        /// Nothing usable was written: the request takes the full path.
        static let fullPathNeeded = Routed(code: -2)
    }

    /// Routes the URL whose UTF-8 is `bytes` (the input, or what a rule made of it) and writes
    /// the answer.
    private func answerRouted(
        _ bytes: UnsafeBufferPointer<UInt8>, _ parts: URLParts, _ input: Input, writer: inout JSONWriter
    ) -> Routed {
        let isAppLink = policy.isAppLink(parts, in: bytes)
        let request: TrieTable.Request
        if router.table.strings.isEmpty {
            let absent = TrieTable.Request.absent
            request = TrieTable.Request(scheme: absent, host: absent, hostAndPort: absent, isAppLink: isAppLink)
        } else {
            let scanner = URLScanner(bytes: bytes)
            request = router.table.request(
                scheme: scanner.makeString(parts.scheme, lowercasing: true),
                host: parts.host.map { scanner.makeString($0, lowercasing: parts.isHTTP) }, port: parts.port,
                isAppLink: isAppLink)
        }
        let host = parts.isHTTP ? nil : parts.host.map { UnsafeBufferPointer(rebasing: bytes[$0]) }
        let path = UnsafeBufferPointer(rebasing: bytes[parts.path])
        // The closure reads the tables through an unretained reference (the resolver keeps them
        // alive): capturing `self` would copy the whole resolver, and capturing the tables as
        // values would retain each of their arrays.
        let tables = Unmanaged.passUnretained(matchTables)
        let found = try? RouteSegments.withSegments(hostBytes: host, pathBytes: path) {
            (segments) throws(URLParseError) -> Routed in
            tables._withUnsafeGuaranteedRef { tables in
                let (entry, limitHits) = tables.table.lookupCountingLimits(segments, request)
                guard limitHits == 0 else { return .fullPathNeeded }
                guard entry >= 0 else { return Self.answerUnmatched(input, tables: tables, writer: &writer) }
                return Self.answerMatched(tables.entries[Int(entry)], tables, segments, bytes, parts, input, writer: &writer)
            }
        }
        return found ?? .fullPathNeeded
    }

    /// `{"matched":false,"url":…,"fallback":…}`, the fallback expanded for the URL as given.
    private static func answerUnmatched(
        _ input: Input, tables: MatchTables, writer: inout JSONWriter
    ) -> Routed {
        input.writeHead(matched: false, to: &writer)
        if let fallback = tables.fallback {
            writer.writeSyntax(#","fallback":"#)
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: fallback.expansionLimit(subjectCount: input.bytes.count)) {
                let count = fallback.expand(parts: input.parts, subject: input.bytes, match: nil, into: $0)
                writer.writeString(utf8: UnsafeBufferPointer(rebasing: $0[..<count]))
            }
        }
        writer.writeSyntax("}")
        return .unmatched
    }

    /// The answer for the route of `entry`; `nil` for a route with a `web` page, too many
    /// params, or a query that does not decode.
    private static func answerMatched(
        _ entry: Router.Entry, _ tables: MatchTables,
        _ segments: UnsafeBufferPointer<PathSegment>, _ bytes: UnsafeBufferPointer<UInt8>, _ parts: URLParts,
        _ input: Input, writer: inout JSONWriter
    ) -> Routed {
        let route = Int(entry.route)
        guard !tables.routes.hasWeb(at: route) else { return .fullPathNeeded }
        let query = parts.query.map { UnsafeBufferPointer(rebasing: bytes[$0]) } ?? UnsafeBufferPointer(start: nil, count: 0)
        input.writeHead(matched: true, to: &writer)
        tables.routes.writeAnswerMembers(at: route, pattern: Int(entry.pattern), to: &writer)
        // The defaults and captures are read in place: as arrays they would be retained, and
        // their reference counts are shared by every worker thread.
        return tables.captures.withUnsafeBufferPointer { allCaptures in
            tables.routes.withDefaultParams(at: route) { defaults in
                let captures = UnsafeBufferPointer(
                    rebasing: allCaptures[Int(entry.captureStart)..<Int(entry.captureStart + entry.captureCount)])
                return QueryPieces.withDecoded(query) { items -> Routed in
                    guard let items, defaults.count + items.count + captures.count <= ParamsMerger.linearScanLimit else {
                        return .fullPathNeeded
                    }
                    var params = ParamsWriter(defaults: defaults, query: items, captures: captures, segments: segments)
                    params.write(to: &writer)
                    writer.writeSyntax("}}")
                    return Routed(code: entry.route)
                }
            }
        }
    }
}
