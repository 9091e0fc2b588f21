extension Resolver {
    /// The one resolve pass: the URL whose UTF-8 is `bytes` through the rewrite rules and the
    /// router, its `/resolve` body appended to `writer` (design.md §5), and every decision told
    /// to `observer`. Every way to resolve is this pass with another observer: the body alone,
    /// a ``Resolution`` value, an `explain` trace.
    ///
    /// The components of each URL are ranges into its bytes, the route's members and params are
    /// written straight from the router's tables, and nothing is allocated when no rule fires
    /// and the writer has the capacity (one array when a rule fires). The uncommon cases (a
    /// rule that is not `last`, a refused result, a PCRE2 limit, a route with a `web` page,
    /// many params, a URL that does not route) are branches in the pass, never a second one.
    ///
    /// - Parameter bytes: valid UTF-8 (a string's, or checked by the caller).
    /// - Returns: what the status, the metrics and a cache need besides the body.
    /// - Throws: ``ResolveError`` (`invalid_url`) when the URL is malformed, or when the URL to
    ///   route has a bad escape or invalid UTF-8 in its path or query; nothing is appended then.
    static func resolve<Observer: ResolveObserver>(
        utf8 bytes: UnsafeBufferPointer<UInt8>, context: UnsafePointer<RequestContext>,
        appendingJSONTo writer: inout JSONWriter, observer: inout Observer, tables: Unmanaged<MatchTables>
    ) throws(ResolveError) -> ResolveSummary {
        let parts: URLParts
        do {
            parts = try URLScanner(bytes: bytes).scan()
        } catch {
            let text = String(decoding: bytes, as: UTF8.self)
            throw ResolveError(message: "invalid URL: \(error.parseError(in: text).description)")
        }
        let start = writer.count
        // The closures capture pointers, ranges and the unretained tables only: nothing whose
        // reference count every worker thread would share.
        let answered = tables._withUnsafeGuaranteedRef { resolving in
            resolving.rewriter.pass(over: bytes, parts: parts, context: context, observer: &observer) {
                final, finalParts, rules, observer in
                rules.laterFired.withUnsafeBufferPointer { laterFired in
                    let head = AnswerHead(
                        input: bytes, inputParts: parts, rewritten: rules.didRewrite ? final : nil,
                        firstFired: rules.firstFired, laterFired: laterFired)
                    return answer(final, finalParts, head, rules, context, tables, &writer, &observer)
                }
            }
        }
        switch answered {
        case .success(let summary):
            return summary
        case .failure(let error):
            writer.truncate(to: start)
            throw error
        }
    }

    /// The URL given and what the rules made of it: the first members of the body. Only
    /// pointers, ranges and numbers, so that the closures it passes through copy it for free.
    private struct AnswerHead {
        /// The UTF-8 of the URL as given.
        let input: UnsafeBufferPointer<UInt8>
        /// The components of the URL as given, for the fallback.
        let inputParts: URLParts
        /// The final URL, when a rule fired.
        let rewritten: UnsafeBufferPointer<UInt8>?
        /// The first rule that fired (-1 when none), and the rules that fired after it.
        let firstFired: Int
        let laterFired: UnsafeBufferPointer<Int>

        /// `{"matched":…,"url":…` and, after a rewrite, `"rewrittenURL"` and `"ruleIds"`.
        func write(matched: Bool, rules: RewriteEngine, to writer: inout JSONWriter) {
            writer.writeSyntax(matched ? #"{"matched":true,"url":"# : #"{"matched":false,"url":"#)
            writer.writeString(utf8: input)
            guard let rewritten else { return }
            writer.writeSyntax(#","rewrittenURL":"#)
            writer.writeString(utf8: rewritten)
            writer.writeSyntax(#","ruleIds":["#)
            writer.writeString(rules.compiled[firstFired].id)
            for rule in laterFired {
                writer.writeSyntax(",")
                writer.writeString(rules.compiled[rule].id)
            }
            writer.writeSyntax("]")
        }
    }

    /// How routing went, as a plain integer, so that nothing reference-counted is copied out
    /// of the closures it passes through: the index of the route that matched, or one of the
    /// outcomes below.
    private struct Routed {
        let code: Int32
        /// Nothing matched.
        static let unmatched = Routed(code: -1)
        /// A route matched but the query does not decode: the request is refused.
        static let invalidQuery = Routed(code: -2)
    }

    /// Routes the final URL whose UTF-8 is `final` and writes the answer.
    private static func answer<Observer: ResolveObserver>(
        _ final: UnsafeBufferPointer<UInt8>, _ finalParts: URLParts, _ head: AnswerHead, _ rules: RulePassSummary,
        _ context: UnsafePointer<RequestContext>, _ tables: Unmanaged<MatchTables>, _ writer: inout JSONWriter,
        _ observer: inout Observer
    ) -> Result<ResolveSummary, ResolveError> {
        let (isAppLink, request) = tables._withUnsafeGuaranteedRef { tables in
            let isAppLink = tables.policy.isAppLink(finalParts, in: final)
            guard !tables.table.strings.isEmpty else {
                let absent = TrieTable.Request.absent
                return (isAppLink, TrieTable.Request(scheme: absent, host: absent, hostAndPort: absent, isAppLink: isAppLink))
            }
            let scanner = URLScanner(bytes: final)
            let request = tables.table.request(
                scheme: scanner.makeString(finalParts.scheme, lowercasing: true),
                host: finalParts.host.map { scanner.makeString($0, lowercasing: finalParts.isHTTP) }, port: finalParts.port,
                isAppLink: isAppLink)
            return (isAppLink, request)
        }
        let host = finalParts.isHTTP ? nil : finalParts.host.map { UnsafeBufferPointer(rebasing: final[$0]) }
        let path = UnsafeBufferPointer(rebasing: final[finalParts.path])
        var walk = tables._withUnsafeGuaranteedRef { observer.makeWalk(table: $0.table, request: request) }
        let routed: Routed
        do {
            routed = try RouteSegments.withSegments(
                hostBytes: host, pathBytes: path, hostOffset: finalParts.host?.lowerBound ?? 0,
                pathOffset: finalParts.path.lowerBound
            ) { (segments) throws(URLParseError) -> Routed in
                tables._withUnsafeGuaranteedRef { tables in
                    let entry = tables.table.lookup(segments, request, observer: &walk)
                    observer.routed(walk, url: final, isAppLink: isAppLink, segments: segments, entry: entry)
                    guard entry >= 0 else { return answerUnmatched(head, tables, &writer, &observer) }
                    return answerMatched(
                        tables.entries[Int(entry)], tables, segments, final, finalParts, head, context, &writer, &observer)
                }
            }
        } catch {
            return .failure(routingError(error, in: final, didRewrite: rules.didRewrite))
        }
        if routed.code == Routed.invalidQuery.code {
            let text = String(decoding: final, as: UTF8.self)
            do {
                _ = try ParsedURL.parse(text).queryItems()
            } catch {
                return .failure(refusal(error, in: text, didRewrite: rules.didRewrite))
            }
            return .failure(
                refusal(URLParseError(message: "the query does not decode", position: 0), in: text, didRewrite: rules.didRewrite))
        }
        return tables._withUnsafeGuaranteedRef { tables in
            .success(
                ResolveSummary(
                    matched: routed.code >= 0, routeID: routed.code >= 0 ? tables.routes.id(at: Int(routed.code)) : nil,
                    firedRuleIDs: tables.rewriter.firedRuleIDs(rules), ruleErrorCount: rules.errorCount,
                    ruleLimitHitCount: rules.limitHitCount, constraintLimitHits: walk.limitHits,
                    dependsOnClock: rules.consultedClock))
        }
    }

    /// `{"matched":false,"url":…,"fallback":…}`, the fallback expanded for the URL as given.
    private static func answerUnmatched<Observer: ResolveObserver>(
        _ head: AnswerHead, _ tables: MatchTables, _ writer: inout JSONWriter, _ observer: inout Observer
    ) -> Routed {
        head.write(matched: false, rules: tables.rewriter, to: &writer)
        if let fallback = tables.fallback {
            writer.writeSyntax(#","fallback":"#)
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: fallback.expansionLimit(subjectCount: head.input.count)) {
                let count = fallback.expand(parts: head.inputParts, subject: head.input, match: nil, into: $0)
                let expanded = UnsafeBufferPointer(rebasing: $0[..<count])
                writer.writeString(utf8: expanded)
                observer.unmatched(fallback: expanded)
            }
        } else {
            observer.unmatched(fallback: nil)
        }
        writer.writeSyntax("}")
        return .unmatched
    }

    /// The answer for the route of `entry`: its members, its params merged from the route's
    /// defaults, the query and the captures, and for a route with a `web` page its `webURL`
    /// (and `openWeb` for an app below the route's `minAppVersion`).
    private static func answerMatched<Observer: ResolveObserver>(
        _ entry: Router.Entry, _ tables: MatchTables, _ segments: UnsafeBufferPointer<PathSegment>,
        _ final: UnsafeBufferPointer<UInt8>, _ finalParts: URLParts, _ head: AnswerHead,
        _ context: UnsafePointer<RequestContext>, _ writer: inout JSONWriter, _ observer: inout Observer
    ) -> Routed {
        let route = Int(entry.route)
        let query =
            finalParts.query.map { UnsafeBufferPointer(rebasing: final[$0]) } ?? UnsafeBufferPointer(start: nil, count: 0)
        // The defaults and captures are read in place: as arrays they would be retained, and
        // their reference counts are shared by every worker thread.
        return tables.captures.withUnsafeBufferPointer { allCaptures in
            tables.routes.withDefaultParams(at: route) { defaults in
                let captures = UnsafeBufferPointer(
                    rebasing: allCaptures[Int(entry.captureStart)..<Int(entry.captureStart + entry.captureCount)])
                return QueryPieces.withDecoded(query) { items -> Routed in
                    guard let items else { return .invalidQuery }
                    return ParamsMerge.with(defaults: defaults, query: items, captures: captures, segments: segments) {
                        params in
                        head.write(matched: true, rules: tables.rewriter, to: &writer)
                        tables.routes.writeAnswerMembers(at: route, pattern: Int(entry.pattern), to: &writer)
                        params.write(to: &writer)
                        writer.writeSyntax("}")
                        var webURL: String?
                        var openWeb = false
                        if let page = tables.routes.webPage(at: route) {
                            let url = page.web.expand(params.values())
                            writer.writeSyntax(#","webURL":"#)
                            writer.writeString(url)
                            openWeb = isBelowMinimum(page.minAppVersion, context.pointee)
                            if openWeb { writer.writeSyntax(#","openWeb":true"#) }
                            webURL = url
                        }
                        writer.writeSyntax("}")
                        observer.matched(route: route, pattern: Int(entry.pattern), params: params, webURL: webURL, openWeb: openWeb)
                        return Routed(code: entry.route)
                    }
                }
            }
        }
    }

    /// Whether the asking app is older than `minimum` (an unknown version is not).
    private static func isBelowMinimum(_ minimum: String?, _ context: RequestContext) -> Bool {
        guard let minimum = minimum.flatMap(SemanticVersion.init), let version = context.appVersion else { return false }
        return version < minimum
    }

    /// The refusal of a URL whose path has a bad escape or invalid UTF-8; `error.position` is
    /// the UTF-8 offset in `final`.
    private static func routingError(_ error: URLParseError, in final: UnsafeBufferPointer<UInt8>, didRewrite: Bool) -> ResolveError {
        let text = String(decoding: final, as: UTF8.self)
        return refusal(
            URLParseError(message: error.message, position: text.characterIndex(ofUTF8Offset: error.position)), in: text,
            didRewrite: didRewrite)
    }

    /// The refusal of the URL to route, `text`, for `error` (a character position in it).
    private static func refusal(_ error: URLParseError, in text: String, didRewrite: Bool) -> ResolveError {
        ResolveError(
            message: didRewrite
                ? "the rewritten URL \(text) is invalid: \(error.description)" : "invalid URL: \(error.description)")
    }
}
