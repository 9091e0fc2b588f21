/// Collects routes, detects conflicts, then freezes them into an immutable ``Router``.
///
/// ```swift
/// var builder = RouterBuilder()
/// try builder.register(Route(id: "product.detail", module: "product", patterns: ["/product/:id"]))
/// let router = builder.build()
/// ```
/// Registration order never changes which route wins: priority is decided per segment
/// (static > constrained > `:param` > `*`), then by scheme/host specificity.
public struct RouterBuilder: Sendable {
    /// A captured value: the name and the index of its segment (catch-alls take the rest).
    struct Capture: Sendable, Hashable {
        var name: String
        var segment: Int
        var isCatchAll: Bool
    }

    /// The trie under construction.
    private(set) var trie = MutableTrie()
    /// One per registered expansion, in registration order (the terminals refer to them).
    private(set) var entries: [Router.Entry] = []
    /// The capture lists of the entries; identical lists are stored once.
    private(set) var captures: [Capture] = []
    /// Where each distinct capture list starts in ``captures``.
    private var captureRuns: [[Capture]: Int32] = [[]: 0]
    /// The capture list of the last entry (consecutive routes mostly share theirs).
    private var lastCaptureRun: Range<Int> = 0..<0
    /// The routes, in registration order.
    private(set) var routes = RouteList()
    private var routeInterning = RouteList.Interning()
    /// Route id → index in ``routes``.
    private(set) var routeIndexByID = RouteIDIndex()
    /// The most routes this builder accepts (design.md §7: 1,000,000 by default).
    public var maximumRoutes: Int

    /// An empty builder that refuses routes beyond `maximumRoutes`.
    public init(maximumRoutes: Int = 1_000_000) {
        self.maximumRoutes = maximumRoutes
    }

    /// How many routes are registered.
    public var count: Int { routes.count }

    /// Makes room for `count` more routes of about one pattern each, so that large configs
    /// do not regrow the tables again and again.
    public mutating func reserveCapacity(_ count: Int) {
        routes.reserveCapacity(count)
        routeIndexByID.reserveCapacity(count)
        entries.reserveCapacity(entries.count + count)
        trie.reserveCapacity(count)
    }

    /// Whether a route with this id is registered.
    public func contains(routeID: String) -> Bool { routeIndex(id: routeID) != nil }

    /// The registration index of the route `id`, or `nil`.
    public func routeIndex(id: String) -> Int? { routeIndexByID.index(of: id, in: routes) }

    /// Registers a route and all its patterns, or nothing if any of them is refused.
    ///
    /// - Throws: ``RouteRegistrationError`` for an empty or duplicate id, a malformed pattern,
    ///   a `web` template that is not an absolute http(s) URL or uses a param the route does
    ///   not define, or a pattern that accepts exactly the same URLs as another route's (naming both).
    public mutating func register(_ route: Route) throws(RouteRegistrationError) {
        guard !route.id.isEmpty else {
            throw RouteRegistrationError(kind: .invalidID, routeID: route.id, message: "the route id is empty")
        }
        var id = route.id
        let (idHash, isRepeated) = id.withUTF8 { bytes in
            let hash = ByteHash.hash(bytes)
            return (hash, routeIndexByID.index(of: bytes, hash: hash, in: routes) != nil)
        }
        guard !isRepeated else {
            throw RouteRegistrationError(
                kind: .duplicateID, routeID: route.id, message: "the route id '\(route.id)' is registered twice")
        }
        guard routes.count < maximumRoutes else {
            throw RouteRegistrationError(
                kind: .limitExceeded, routeID: route.id,
                message: "more than \(maximumRoutes) routes; raise limits.max_routes")
        }
        guard !route.patterns.isEmpty else {
            throw RouteRegistrationError(kind: .invalidPattern, routeID: route.id, message: "the route has no pattern")
        }
        // The common case, one plain pattern and no web/minAppVersion to check: straight from
        // the pattern's bytes into the trie.
        if route.patterns.count == 1, route.web == nil, route.minAppVersion == nil,
            let (node, captureStart) = walkCreatingPlainPath(route.patterns[0])
        {
            try registerWalked(
                route, idHash: idHash, patternText: route.patterns[0], patternNumber: 0, scheme: nil, host: nil, at: node,
                captureStart: captureStart)
            return
        }
        try registerParsed(route, idHash: idHash)
    }

    /// Registers a route whose patterns need the full parser (groups, constraints, scheme/host),
    /// or whose `web` and `minAppVersion` need checking.
    private mutating func registerParsed(_ route: Route, idHash: Int) throws(RouteRegistrationError) {
        var expansions: [RoutePattern] = []
        var patternNumbers: [Int] = []
        for (number, text) in route.patterns.enumerated() {
            do {
                let parsed = try RoutePattern.parse(text)
                expansions += parsed
                patternNumbers += repeatElement(number, count: parsed.count)
            } catch {
                throw RouteRegistrationError(kind: .invalidPattern, routeID: route.id, message: error.description)
            }
        }
        if let web = route.web {
            let known = Set(expansions.flatMap(\.parameterNames) + route.defaultParams.map(\.name))
            do {
                try web.validate(knownParameters: known)
            } catch {
                throw RouteRegistrationError(kind: .invalidWeb, routeID: route.id, message: error.message)
            }
        }
        if let minimum = route.minAppVersion {
            guard SemanticVersion(minimum) != nil else {
                throw RouteRegistrationError(
                    kind: .invalidMinAppVersion, routeID: route.id,
                    message: "minAppVersion '\(minimum)' is not a version such as 5.2.0")
            }
            guard route.web != nil else {
                throw RouteRegistrationError(
                    kind: .invalidMinAppVersion, routeID: route.id,
                    message: "minAppVersion needs a 'web' URL to send older apps to")
            }
        }
        if expansions.count == 1 {
            let pattern = expansions[0]
            let (node, captureStart) = walkCreating(pattern.segments)
            try registerWalked(
                route, idHash: idHash, patternText: pattern.text, patternNumber: patternNumbers[0], scheme: pattern.scheme,
                host: pattern.host, at: node, captureStart: captureStart)
            return
        }
        // Check every expansion before changing anything, so a refused route leaves no trace.
        var claimed: [(node: Int32, scheme: String?, host: String?)] = []
        var planned: [(pattern: RoutePattern, number: Int)] = []
        for (expansionIndex, pattern) in expansions.enumerated() {
            let node = existingNode(for: pattern.segments)
            if let node {
                try checkConflict(route, patternText: pattern.text, scheme: pattern.scheme, host: pattern.host, at: node, captureStart: nil)
                // Expansions of this same route that coincide are registered once.
                if claimed.contains(where: { $0.node == node && $0.scheme == pattern.scheme && $0.host == pattern.host }) {
                    continue
                }
                claimed.append((node, pattern.scheme, pattern.host))
            }
            planned.append((pattern, patternNumbers[expansionIndex]))
        }
        let routeIndex = appendRoute(route, idHash: idHash)
        var inserted = Set<[PatternSegment]>()
        for (pattern, number) in planned {
            let key = [PatternSegment.literal(pattern.scheme ?? ""), .literal(pattern.host ?? "")] + pattern.segments
            guard inserted.insert(key).inserted else { continue }
            let (node, captureStart) = walkCreating(pattern.segments)
            addEntry(
                at: node, route: routeIndex, patternNumber: number, scheme: pattern.scheme, host: pattern.host, captureStart: captureStart)
        }
    }

    /// Registers a route of one expansion, whose walk (creating missing nodes) ended at `node`
    /// and appended its captures from `captureStart` on; refused on a conflict. A conflict can
    /// only be found at a node that existed, so every node on the way existed too and a
    /// refused route still leaves no trace.
    private mutating func registerWalked(
        _ route: Route, idHash: Int, patternText: String, patternNumber: Int, scheme: String?, host: String?,
        at node: Int32, captureStart: Int
    ) throws(RouteRegistrationError) {
        try checkConflict(route, patternText: patternText, scheme: scheme, host: host, at: node, captureStart: captureStart)
        let routeIndex = appendRoute(route, idHash: idHash)
        addEntry(at: node, route: routeIndex, patternNumber: patternNumber, scheme: scheme, host: host, captureStart: captureStart)
    }

    /// Throws when a pattern of another route at `node` has the same scheme/host restriction;
    /// the captures appended from `captureStart` on (if any) are dropped then.
    private mutating func checkConflict(
        _ route: Route, patternText: String, scheme: String?, host: String?, at node: Int32, captureStart: Int?
    ) throws(RouteRegistrationError) {
        guard let entryIndex = trie.entry(at: node, scheme: scheme, host: host) else { return }
        if let captureStart { captures.removeSubrange(captureStart...) }
        let entry = entries[Int(entryIndex)]
        let otherID = routes.id(at: Int(entry.route))
        throw RouteRegistrationError(
            kind: .conflict, routeID: route.id, otherRouteID: otherID,
            message: "pattern '\(patternText)' accepts exactly the same URLs as route '\(otherID)' "
                + "(pattern '\(routes.pattern(at: Int(entry.route), number: Int(entry.pattern)))')")
    }

    /// Appends an accepted route; returns its index.
    private mutating func appendRoute(_ route: Route, idHash: Int) -> Int {
        let index = routes.count
        routes.append(route, interning: &routeInterning)
        routeIndexByID.insert(index, hash: idHash)
        return index
    }

    /// Records the expansion `patternNumber` of `route` ending at `node`, whose captures were
    /// appended to ``captures`` from `captureStart` on (stored once per distinct list).
    private mutating func addEntry(
        at node: Int32, route: Int, patternNumber: Int, scheme: String?, host: String?, captureStart: Int
    ) {
        let run = captureStart..<captures.count
        let start: Int
        if run.isEmpty {
            start = 0
        } else if captures[lastCaptureRun] == captures[run] {
            start = lastCaptureRun.lowerBound
            captures.removeSubrange(run)
        } else {
            let list = Array(captures[run])
            if let known = captureRuns[list] {
                start = Int(known)
                captures.removeSubrange(run)
            } else {
                start = captureStart
                captureRuns[list] = Int32(start)
            }
        }
        lastCaptureRun = start..<start + run.count
        entries.append(
            Router.Entry(route: Int32(route), pattern: Int32(patternNumber), captureStart: Int32(start), captureCount: Int32(run.count)))
        trie.addTerminal(at: node, entry: Int32(entries.count - 1), scheme: scheme, host: host)
    }

    /// Freezes the routes into an immutable, lock-free ``Router``.
    public func build() -> Router {
        Router(builder: self)
    }

    // MARK: - Walking the trie

    /// For a plain path pattern (see ``PatternParser/isPlainPath(_:)``): walks its segments from
    /// the root, creating missing nodes; returns the last node and where its captures start in
    /// ``captures``. `nil`, with nothing changed, when the pattern is not plain.
    private mutating func walkCreatingPlainPath(_ pattern: String) -> (node: Int32, captureStart: Int)? {
        var pattern = pattern
        return pattern.withUTF8 { bytes -> (node: Int32, captureStart: Int)? in
            guard PatternParser.isPlainPath(bytes) else { return nil }
            let captureStart = captures.count
            var node = MutableTrie.root
            var index = 0
            PatternParser.forEachPlainSegment(bytes) { segment, isParameter in
                if isParameter {
                    captures.append(Capture(name: String(decoding: segment, as: UTF8.self), segment: index, isCatchAll: false))
                    node = trie.makeParameterChild(of: node)
                } else {
                    node = trie.makeStaticChild(of: node, segment)
                }
                index += 1
            }
            return (node, captureStart)
        }
    }

    /// Walks `segments` from the root, creating missing nodes; returns the last node and the
    /// index in ``captures`` where the captures along the way were appended.
    private mutating func walkCreating(_ segments: [PatternSegment]) -> (node: Int32, captureStart: Int) {
        var node = MutableTrie.root
        let captureStart = captures.count
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .literal(var text):
                node = text.withUTF8 { trie.makeStaticChild(of: node, $0) }
            case .parameter(let name, let constraint?):
                captures.append(Capture(name: name, segment: index, isCatchAll: false))
                node = trie.makeConstrainedChild(of: node, constraint)
            case .parameter(let name, nil):
                captures.append(Capture(name: name, segment: index, isCatchAll: false))
                node = trie.makeParameterChild(of: node)
            case .catchAll(let name):
                captures.append(Capture(name: name, segment: index, isCatchAll: true))
                node = trie.makeCatchAllChild(of: node)
            }
        }
        return (node, captureStart)
    }

    /// The node `segments` lead to from the root, if every node on the way exists.
    private func existingNode(for segments: [PatternSegment]) -> Int32? {
        var node = MutableTrie.root
        for segment in segments {
            let next: Int32?
            switch segment {
            case .literal(var text): next = text.withUTF8 { trie.staticChild(of: node, $0) }
            case .parameter(_, let constraint?): next = trie.constrainedChild(of: node, constraint)
            case .parameter(_, nil): next = trie.parameterChild(of: node)
            case .catchAll: next = trie.catchAllChild(of: node)
            }
            guard let next else { return nil }
            node = next
        }
        return node
    }
}
