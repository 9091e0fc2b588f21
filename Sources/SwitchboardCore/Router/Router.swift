/// An immutable route table: matches URLs against registered patterns without locks.
///
/// Build one with ``RouterBuilder``. Matching follows DESIGN §3: per segment from left to
/// right, static > constrained (`int`, `uuid`, then regexes by text) > `:param` > `*`,
/// backtracking when a branch fails deeper down; among patterns with the same path, the
/// more specific restriction wins (scheme+host > scheme > none).
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
    private let captures: [RouterBuilder.Capture]
    /// Every registered route, in registration order.
    public let routes: RouteList
    private let routeIndexByID: RouteIDIndex

    init(builder: RouterBuilder) {
        var nodes: [TrieTable.Node] = []
        nodes.reserveCapacity(builder.nodes.count)
        var staticEdges: [TrieTable.StaticEdge] = []
        var labels: [UInt8] = []
        var labelOffsets: [String: Int32] = [:]
        var constrainedEdges: [TrieTable.ConstrainedEdge] = []
        var constraintIndex: [ParameterConstraint: Int32] = [:]
        var constraints: [SegmentConstraint] = []
        var terminals: [TrieTable.Terminal] = []
        var strings: [String] = []
        var stringIndex: [String: Int32] = [:]

        func intern(_ text: String?) -> Int32 {
            guard let text else { return -1 }
            if let index = stringIndex[text] { return index }
            strings.append(text)
            stringIndex[text] = Int32(strings.count - 1)
            return Int32(strings.count - 1)
        }

        staticEdges.reserveCapacity(builder.nodes.count)
        terminals.reserveCapacity(builder.entries.count)
        for node in builder.nodes {
            var frozen = TrieTable.Node()
            frozen.staticStart = Int32(staticEdges.count)
            frozen.staticCount = Int32(node.literals.count)
            func appendStaticEdge(_ key: String, _ child: Int) {
                let offset: Int32
                if let existing = labelOffsets[key] {
                    offset = existing
                } else {
                    offset = Int32(labels.count)
                    labels += key.utf8
                    labelOffsets[key] = offset
                }
                staticEdges.append(
                    TrieTable.StaticEdge(labelOffset: offset, labelCount: Int32(key.utf8.count), child: Int32(child)))
            }
            // Most nodes have at most one static child: no sorting, no copies then.
            if node.literals.count <= 1 {
                for (key, child) in node.literals { appendStaticEdge(key, child) }
            } else {
                let sorted = node.literals.map { (bytes: Array($0.key.utf8), key: $0.key, child: $0.value) }
                    .sorted { TrieTable.labelPrecedes($0.bytes, $1.bytes) }
                for literal in sorted { appendStaticEdge(literal.key, literal.child) }
            }
            frozen.constrainedStart = Int32(constrainedEdges.count)
            frozen.constrainedCount = Int32(node.constrained.count)
            for (constraint, child) in node.constrained.sorted(by: { $0.key < $1.key }) {
                let index: Int32
                if let existing = constraintIndex[constraint] {
                    index = existing
                } else {
                    // Patterns were validated when parsed; a regex that fails now accepts nothing.
                    constraints.append((try? SegmentConstraint(constraint)) ?? .regexNeverMatching)
                    index = Int32(constraints.count - 1)
                    constraintIndex[constraint] = index
                }
                constrainedEdges.append(TrieTable.ConstrainedEdge(constraint: index, child: Int32(child)))
            }
            frozen.parameter = Int32(node.parameter ?? -1)
            frozen.catchAll = Int32(node.catchAll ?? -1)
            let sortedTerminals =
                node.terminals.count <= 1
                ? node.terminals
                : node.terminals.enumerated().sorted {
                    $0.element.specificity != $1.element.specificity
                        ? $0.element.specificity > $1.element.specificity : $0.offset < $1.offset
                }.map(\.element)
            frozen.terminalStart = Int32(terminals.count)
            frozen.terminalCount = Int32(sortedTerminals.count)
            for terminal in sortedTerminals {
                terminals.append(
                    TrieTable.Terminal(entry: Int32(terminal.entry), scheme: intern(terminal.scheme), host: intern(terminal.host)))
            }
            nodes.append(frozen)
        }
        table = TrieTable(
            nodes: nodes, staticEdges: staticEdges, labels: labels, constrainedEdges: constrainedEdges,
            terminals: terminals, constraints: constraints, strings: strings)

        var entries: [Entry] = []
        entries.reserveCapacity(builder.entries.count)
        var captures: [RouterBuilder.Capture] = []
        var captureRuns: [ArraySlice<RouterBuilder.Capture>: Int32] = [[]: 0]
        var lastRun: (captures: ArraySlice<RouterBuilder.Capture>, start: Int32) = ([], 0)
        for entry in builder.entries {
            let run = builder.captures[entry.captureStart..<entry.captureStart + entry.captureCount]
            let start: Int32
            if run == lastRun.captures {
                start = lastRun.start
            } else if let known = captureRuns[run] {
                start = known
            } else {
                start = Int32(captures.count)
                captures += run
                captureRuns[run] = start
            }
            lastRun = (run, start)
            entries.append(
                Entry(
                    route: Int32(entry.route), pattern: Int32(entry.patternIndex), captureStart: start,
                    captureCount: Int32(entry.captureCount)))
        }
        self.entries = entries
        self.captures = captures
        self.routes = RouteList(builder.routes)
        self.routeIndexByID = RouteIDIndex(routes)
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
        let request = table.request(scheme: url.scheme, hostKey: Self.hostKey(url), isAppLink: isAppLink)
        do {
            return try match(url, request)
        } catch {
            // Splitting reports the UTF-8 offset of the bad segment: turn it into the
            // character position in the URL, like every other URLParseError.
            throw URLParseError(message: error.message, position: url.string.characterIndex(ofUTF8Offset: error.position))
        }
    }

    private func match(_ url: ParsedURL, _ request: TrieTable.Request) throws(URLParseError) -> RouteMatch? {
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
        let found = try RouteSegments.withSegments(
            host: url.isHTTP ? nil : url.host, path: url.path, hostOffset: hostOffset, pathOffset: pathOffset
        ) { (segments) throws(URLParseError) -> (entry: Entry, values: [(name: String, value: String)])? in
            let found = table.lookup(segments, request)
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
        guard let found else { return nil }
        return RouteMatch(route: routes[Int(found.entry.route)], pattern: patternText(of: found.entry), captures: found.values)
    }

    /// The entry index that `path` matches, without building captures: the benchmark seam
    /// for the trie walk (split, decode, walk) with no heap allocation.
    @_spi(Benchmarks) public func lookupEntry(scheme: String, host: String?, path: String, isAppLink: Bool) -> Int? {
        let table = self.table  // capture the table alone, not a copy of the whole router
        let request = table.request(scheme: scheme, hostKey: host, isAppLink: isAppLink)
        let found = try? RouteSegments.withSegments(host: nil, path: path) { (segments) throws(URLParseError) -> Int32 in
            table.lookup(segments, request)
        }
        guard let found, found >= 0 else { return nil }
        return Int(found)
    }

    static func hostKey(_ url: ParsedURL) -> String? {
        guard let host = url.host else { return nil }
        guard let port = url.port else { return host }
        return "\(host):\(port)"
    }
}
