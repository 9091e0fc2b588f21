extension Resolver {
    /// Resolves `text` and appends the `/resolve` body to `writer`: the same bytes as
    /// ``resolveWithOutcome(_:context:)`` then ``Resolution/jsonBytes``, for less work.
    ///
    /// The common request (no rule fires, a route without a `web` page or no route, a handful
    /// of params) is answered from ranges into the URL's bytes, written straight into the
    /// buffer: nothing is allocated when `writer` has the capacity (keep one per thread and
    /// ``JSONWriter/removeAll()`` it between requests). Any other request takes the full path.
    ///
    /// - Returns: what the metrics and the cache need besides the body.
    /// - Throws: ``ResolveError`` like ``resolveWithOutcome(_:context:)``; nothing is appended then.
    package func resolve(
        _ text: String, context: RequestContext = RequestContext(), appendingJSONTo writer: inout JSONWriter
    ) throws(ResolveError) -> ResolveSummary {
        var text = text
        let start = writer.count
        let summary = text.withUTF8 { answerCommonRequest($0, context: context, writer: &writer) }
        if let summary { return summary }
        writer.truncate(to: start)
        let (resolution, outcome) = try resolveWithOutcome(text, context: context)
        resolution.write(to: &writer)
        return ResolveSummary(
            matched: resolution.matched, routeID: resolution.match?.route.id, firedRuleIDs: resolution.ruleIDs,
            ruleErrorCount: outcome.errors.count, ruleLimitHitCount: outcome.limitHits.count,
            constraintLimitHits: resolution.constraintLimitHits)
    }

    /// The answer to a common request, written to `writer`; `nil` (with whatever was written
    /// left for the caller to drop) when the request needs the full path.
    private func answerCommonRequest(
        _ bytes: UnsafeBufferPointer<UInt8>, context: RequestContext, writer: inout JSONWriter
    ) -> ResolveSummary? {
        guard let parts = try? URLScanner(bytes: bytes).scan(), rewriter.firesNoRule(on: bytes, context: context) else {
            return nil
        }
        let isAppLink = policy.isAppLink(parts, in: bytes)
        let request: TrieTable.Request
        if router.table.strings.isEmpty {
            let absent = TrieTable.Request.absent
            request = TrieTable.Request(scheme: absent, host: absent, hostAndPort: absent, isAppLink: isAppLink)
        } else {
            let scanner = URLScanner(bytes: bytes)
            request = router.table.request(
                scheme: scanner.makeString(parts.scheme, lowercasingASCII: true),
                host: parts.host.map { scanner.makeString($0, lowercasingASCII: parts.isHTTP) }, port: parts.port,
                isAppLink: isAppLink)
        }
        let host = parts.isHTTP ? nil : parts.host.map { UnsafeBufferPointer(rebasing: bytes[$0]) }
        let path = UnsafeBufferPointer(rebasing: bytes[parts.path])
        let found = try? RouteSegments.withSegments(hostBytes: host, pathBytes: path) {
            (segments) throws(URLParseError) -> ResolveSummary? in
            let (entry, limitHits) = router.table.lookupCountingLimits(segments, request)
            guard limitHits == 0 else { return nil }
            guard entry >= 0 else { return answerUnmatched(bytes, writer: &writer) }
            return answerMatched(router.entries[Int(entry)], segments, bytes, parts, writer: &writer)
        }
        return found ?? nil
    }

    /// `{"matched":false,"url":…,"fallback":…}`.
    private func answerUnmatched(_ bytes: UnsafeBufferPointer<UInt8>, writer: inout JSONWriter) -> ResolveSummary? {
        writer.writeSyntax(#"{"matched":false,"url":"#)
        writer.writeString(utf8: bytes)
        if let fallback {
            guard let input = try? URLScanner(bytes: bytes).parse(String(decoding: bytes, as: UTF8.self)) else { return nil }
            writer.writeSyntax(#","fallback":"#)
            writer.writeString(fallback.expand(url: input, subject: bytes, match: nil))
        }
        writer.writeSyntax("}")
        return ResolveSummary(
            matched: false, routeID: nil, firedRuleIDs: [], ruleErrorCount: 0, ruleLimitHitCount: 0, constraintLimitHits: 0)
    }

    /// The answer for the route of `entry`; `nil` for a route with a `web` page, too many
    /// params, or a query that does not decode.
    private func answerMatched(
        _ entry: Router.Entry, _ segments: UnsafeBufferPointer<PathSegment>, _ bytes: UnsafeBufferPointer<UInt8>,
        _ parts: URLParts, writer: inout JSONWriter
    ) -> ResolveSummary? {
        let routes = router.routes
        let route = Int(entry.route)
        guard !routes.hasWeb(at: route) else { return nil }
        let query = parts.query.map { UnsafeBufferPointer(rebasing: bytes[$0]) } ?? UnsafeBufferPointer(start: nil, count: 0)
        let captures = router.captures[Int(entry.captureStart)..<Int(entry.captureStart + entry.captureCount)]
        let defaults = routes.defaultParams(at: route)
        return QueryPieces.withDecoded(query) { items -> ResolveSummary? in
            guard let items, defaults.count + items.count + captures.count <= ParamsMerger.linearScanLimit else {
                return nil
            }
            writer.writeSyntax(#"{"matched":true,"url":"#)
            writer.writeString(utf8: bytes)
            writer.writeSyntax(#","routeId":"#)
            routes.writeID(at: route, to: &writer)
            writer.writeSyntax(#","module":"#)
            writer.writeString(routes.module(at: route))
            writer.writeSyntax(#","pattern":"#)
            routes.writePattern(at: route, number: Int(entry.pattern), to: &writer)
            writer.writeSyntax(#","target":"#)
            writer.write(routes.target(at: route))
            writer.writeSyntax(#","params":{"#)
            var params = ParamsWriter(defaults: defaults, query: items, captures: captures, segments: segments)
            params.write(to: &writer)
            writer.writeSyntax("}}")
            return ResolveSummary(
                matched: true, routeID: routes.id(at: route), firedRuleIDs: [], ruleErrorCount: 0, ruleLimitHitCount: 0,
                constraintLimitHits: 0)
        }
    }
}
