/// An immutable route table: matches URLs against registered patterns without locks.
///
/// Build one with ``RouterBuilder``. Matching follows design.md §3: per segment from left to
/// right, static > constrained (`int`, `uuid`, then regexes by text) > `:param` > `*`,
/// backtracking when a branch fails deeper down; among patterns with the same path, the
/// more specific restriction wins (scheme+host with a port > scheme+host > scheme > none).
public struct Router: Sendable {
    /// A registered expansion (16 bytes): its route, which of the route's patterns it comes
    /// from, and its captures in `captures[captureStart..<+captureCount]` (identical capture
    /// lists are stored once).
    struct Entry: Sendable {
        var route: Int32
        var pattern: Int32
        var captureStart: Int32
        var captureCount: Int32
    }

    let table: TrieTable
    let entries: [Entry]
    let captures: [RouterBuilder.Capture]
    /// Every registered route, in registration order.
    public let routes: RouteList
    private let routeIndexByID: RouteIDIndex

    init(builder: RouterBuilder) {
        table = builder.trie.freeze()
        entries = builder.entries.withoutSpareCapacity()
        captures = builder.captures.withoutSpareCapacity()
        var routes = builder.routes
        routes.shrinkToFit()
        self.routes = routes
        routeIndexByID = builder.routeIndexByID
    }

    /// The route registered under `id`.
    public func route(id: String) -> Route? {
        routeIndex(id: id).map { routes[$0] }
    }

    /// The index in ``routes`` of the route registered under `id`.
    public func routeIndex(id: String) -> Int? {
        routeIndexByID.index(of: id, in: routes)
    }

    /// The pattern text of an entry, as registered.
    func patternText(of entry: Entry) -> String {
        routes.pattern(at: Int(entry.route), number: Int(entry.pattern))
    }

    /// Bytes of heap held by the trie itself (nodes, edges, labels, terminals).
    public var trieByteCount: Int { table.byteCount }

    /// Finds the route for a URL.
    ///
    /// - Parameters:
    ///   - url: the URL to route (after rewriting).
    ///   - isAppLink: whether the URL is an app link (custom scheme in `schemes`, or an
    ///     `http(s)` host in `domains`); only app links match path-only patterns.
    /// - Returns: the match, or `nil` when no pattern accepts the URL.
    /// - Throws: ``URLParseError`` when a path segment has a bad escape or invalid UTF-8.
    public func match(_ url: ParsedURL, isAppLink: Bool) throws(URLParseError) -> RouteMatch? {
        try matchCountingLimits(url, isAppLink: isAppLink).match
    }

    /// Finds the route for a URL, like ``match(_:isAppLink:)``, and counts the constraint
    /// regexes that a PCRE2 limit stopped on the way (each counts as not accepting).
    ///
    /// - Returns: the match (or `nil`) and the number of limit hits.
    /// - Throws: ``URLParseError`` when a path segment has a bad escape or invalid UTF-8.
    public func matchCountingLimits(
        _ url: ParsedURL, isAppLink: Bool
    ) throws(URLParseError) -> (match: RouteMatch?, limitHits: Int) {
        let request = table.request(scheme: url.scheme, host: url.host, port: url.port, isAppLink: isAppLink)
        do {
            return try match(url, request)
        } catch {
            // Splitting reports the UTF-8 offset of the bad segment: turn it into the
            // character position in the URL, like every other URLParseError.
            throw URLParseError(message: error.message, position: url.string.characterIndex(ofUTF8Offset: error.position))
        }
    }

    private func match(
        _ url: ParsedURL, _ request: TrieTable.Request
    ) throws(URLParseError) -> (match: RouteMatch?, limitHits: Int) {
        // UTF-8 offsets of the host and path in the URL (`scheme://[userinfo@]host[:port]path?query#fragment`).
        let hostOffset = url.scheme.utf8.count + 3 + (url.userinfo.map { $0.utf8.count + 1 } ?? 0)
        let pathOffset =
            url.string.utf8.count - url.path.utf8.count
            - (url.query.map { $0.utf8.count + 1 } ?? 0) - (url.fragment.map { $0.utf8.count + 1 } ?? 0)
        // The closure captures the two tables it reads, not a copy of the whole router (its
        // other stored arrays would be retained and released on every lookup); the route is
        // made outside it.
        let table = self.table
        let captures = self.captures
        let entries = self.entries
        var limitHits = 0
        let found = try RouteSegments.withSegments(
            host: url.isHTTP ? nil : url.host, path: url.path, hostOffset: hostOffset, pathOffset: pathOffset
        ) { (segments) throws(URLParseError) -> (entry: Entry, values: [(name: String, value: String)])? in
            let (found, hits) = table.lookupCountingLimits(segments, request)
            limitHits = hits
            guard found >= 0 else { return nil }
            let entry = entries[Int(found)]
            var values: [(name: String, value: String)] = []
            values.reserveCapacity(Int(entry.captureCount))
            for capture in captures[Int(entry.captureStart)..<Int(entry.captureStart + entry.captureCount)] {
                if capture.isCatchAll {
                    let rest = segments[capture.segment...].map(\.string).joined(separator: "/")
                    values.append((capture.name, rest))
                } else {
                    values.append((capture.name, segments[capture.segment].string))
                }
            }
            return (entry, values)
        }
        guard let found else { return (nil, limitHits) }
        let match = RouteMatch(route: routes[Int(found.entry.route)], pattern: patternText(of: found.entry), captures: found.values)
        return (match, limitHits)
    }

    /// The entry index that `path` matches, without building captures: the benchmark seam
    /// for the trie walk (split, decode, walk) with no heap allocation.
    @_spi(Benchmarks) public func lookupEntry(scheme: String, host: String?, path: String, isAppLink: Bool) -> Int? {
        let table = self.table  // capture the table alone, not a copy of the whole router
        let request = table.request(scheme: scheme, host: host, port: nil, isAppLink: isAppLink)
        let found = try? RouteSegments.withSegments(host: nil, path: path) { (segments) throws(URLParseError) -> Int32 in
            table.lookup(segments, request)
        }
        guard let found, found >= 0 else { return nil }
        return Int(found)
    }
}
