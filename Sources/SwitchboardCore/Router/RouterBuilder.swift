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
    /// A node of the mutable trie.
    struct Node: Sendable {
        var literals: [String: Int] = [:]
        var constrained: [ParameterConstraint: Int] = [:]
        var parameter: Int?
        var catchAll: Int?
        var terminals: [Terminal] = []
    }

    /// A pattern expansion ending at a node, with the restriction it puts on scheme/host.
    struct Terminal: Sendable {
        var entry: Int
        var scheme: String?
        var host: String?

        /// scheme+host (2) > scheme (1) > none (0).
        var specificity: Int { host != nil ? 2 : (scheme != nil ? 1 : 0) }
    }

    /// One registered expansion: which route, which of its patterns, and its captures
    /// (`captures[captureStart..<captureStart + captureCount]`).
    struct Entry: Sendable {
        var route: Int
        var patternIndex: Int
        var captureStart: Int
        var captureCount: Int
    }

    /// A captured value: the name and the index of its segment (catch-alls take the rest).
    struct Capture: Sendable, Hashable {
        var name: String
        var segment: Int
        var isCatchAll: Bool
    }

    var nodes: [Node] = [Node()]
    var entries: [Entry] = []
    /// The captures of every entry, one after the other.
    var captures: [Capture] = []
    var routes: [Route] = []
    private var routeIndexByID: [String: Int] = [:]
    /// The most routes this builder accepts (DESIGN §7: 1,000,000 by default).
    public var maximumRoutes: Int

    public init(maximumRoutes: Int = 1_000_000) {
        self.maximumRoutes = maximumRoutes
    }

    /// How many routes are registered.
    public var count: Int { routes.count }

    /// Makes room for `count` more routes of about one pattern each, so that large configs
    /// do not regrow the tables again and again.
    public mutating func reserveCapacity(_ count: Int) {
        routes.reserveCapacity(routes.count + count)
        entries.reserveCapacity(entries.count + count)
        captures.reserveCapacity(captures.count + count)
        routeIndexByID.reserveCapacity(routeIndexByID.count + count)
        nodes.reserveCapacity(nodes.count + count)
    }

    /// Whether a route with this id is registered.
    public func contains(routeID: String) -> Bool { routeIndexByID[routeID] != nil }

    /// The registration index of the route `id`, or `nil`.
    public func routeIndex(id: String) -> Int? { routeIndexByID[id] }

    /// Registers a route and all its patterns, or nothing if any of them is refused.
    ///
    /// - Throws: ``RouteRegistrationError`` for an empty or duplicate id, a malformed pattern,
    ///   a `web` template that is not an absolute http(s) URL or uses a param the route does
    ///   not define, or a pattern that accepts exactly the same URLs as another route's (naming both).
    public mutating func register(_ route: Route) throws(RouteRegistrationError) {
        guard !route.id.isEmpty else {
            throw RouteRegistrationError(kind: .invalidID, routeID: route.id, message: "the route id is empty")
        }
        guard routeIndexByID[route.id] == nil else {
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
        // The common case, one plain pattern and no web/minAppVersion to check: no lists.
        if route.patterns.count == 1, route.web == nil, route.minAppVersion == nil,
            let plain = PatternParser.parsePlainPath(route.patterns[0])
        {
            try registerSingle(route, plain, patternNumber: 0)
            return
        }
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
            try registerSingle(route, expansions[0], patternNumber: patternNumbers[0])
            return
        }
        // Check every expansion before changing anything, so a refused route leaves no trace.
        var claimed: [(node: Int, scheme: String?, host: String?)] = []
        var planned: [(pattern: RoutePattern, node: Int?)] = []
        var plannedNumbers: [Int] = []
        for (expansionIndex, pattern) in expansions.enumerated() {
            let node = existingNode(for: pattern.segments)
            if let node {
                try checkConflict(route, pattern, at: node)
            }
            // Expansions of this same route that coincide are registered once.
            if let node, claimed.contains(where: { $0.node == node && $0.scheme == pattern.scheme && $0.host == pattern.host }) {
                continue
            }
            if let node { claimed.append((node, pattern.scheme, pattern.host)) }
            planned.append((pattern, node))
            plannedNumbers.append(patternNumbers[expansionIndex])
        }
        let routeIndex = routes.count
        routes.append(route)
        routeIndexByID[route.id] = routeIndex
        if planned.count == 1 {
            insert(planned[0].pattern, route: routeIndex, patternNumber: plannedNumbers[0])
            return
        }
        var inserted = Set<[PatternSegment]>()
        for (position, (pattern, _)) in planned.enumerated() {
            let key = [PatternSegment.literal(pattern.scheme ?? ""), .literal(pattern.host ?? "")] + pattern.segments
            guard inserted.insert(key).inserted else { continue }
            insert(pattern, route: routeIndex, patternNumber: plannedNumbers[position])
        }
    }

    /// A route with one expansion: one walk that creates the missing nodes. A conflict can
    /// only be found at a node that existed, so every node on the way existed too and a
    /// refused route still leaves no trace.
    private mutating func registerSingle(
        _ route: Route, _ pattern: RoutePattern, patternNumber: Int
    ) throws(RouteRegistrationError) {
        let (node, captureStart) = walkCreating(pattern.segments)
        do {
            try checkConflict(route, pattern, at: node)
        } catch {
            captures.removeSubrange(captureStart...)
            throw error
        }
        let routeIndex = routes.count
        routes.append(route)
        routeIndexByID[route.id] = routeIndex
        addTerminal(at: node, pattern, route: routeIndex, patternNumber: patternNumber, captureStart: captureStart)
    }

    /// Throws when a pattern of another route at `node` has the same scheme/host restriction.
    private func checkConflict(_ route: Route, _ pattern: RoutePattern, at node: Int) throws(RouteRegistrationError) {
        for terminal in nodes[node].terminals
        where terminal.scheme == pattern.scheme && terminal.host == pattern.host {
            let entry = entries[terminal.entry]
            let other = routes[entry.route]
            throw RouteRegistrationError(
                kind: .conflict, routeID: route.id, otherRouteID: other.id,
                message: "pattern '\(pattern.text)' accepts exactly the same URLs as route '\(other.id)' "
                    + "(pattern '\(other.patterns[entry.patternIndex])')")
        }
    }

    /// Freezes the routes into an immutable, lock-free ``Router``.
    public func build() -> Router {
        Router(builder: self)
    }

    // MARK: - Trie

    private func existingNode(for segments: [PatternSegment]) -> Int? {
        var node = 0
        for segment in segments {
            let next: Int?
            switch segment {
            case .literal(let text): next = nodes[node].literals[text]
            case .parameter(_, let constraint?): next = nodes[node].constrained[constraint]
            case .parameter(_, nil): next = nodes[node].parameter
            case .catchAll: next = nodes[node].catchAll
            }
            guard let next else { return nil }
            node = next
        }
        return node
    }

    private mutating func insert(_ pattern: RoutePattern, route: Int, patternNumber: Int) {
        let (node, captureStart) = walkCreating(pattern.segments)
        addTerminal(at: node, pattern, route: route, patternNumber: patternNumber, captureStart: captureStart)
    }

    /// Records the expansion `pattern` of `route` ending at `node`, whose captures were
    /// appended to ``captures`` from `captureStart` on.
    private mutating func addTerminal(
        at node: Int, _ pattern: RoutePattern, route: Int, patternNumber: Int, captureStart: Int
    ) {
        entries.append(
            Entry(
                route: route, patternIndex: patternNumber, captureStart: captureStart,
                captureCount: captures.count - captureStart))
        nodes[node].terminals.append(Terminal(entry: entries.count - 1, scheme: pattern.scheme, host: pattern.host))
    }

    /// Walks `segments` from the root, creating missing nodes; returns the last node and the
    /// index in ``captures`` where the captures along the way were appended.
    private mutating func walkCreating(_ segments: [PatternSegment]) -> (node: Int, captureStart: Int) {
        var node = 0
        let captureStart = captures.count
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .literal(let text):
                node = literalChild(of: node, text)
            case .parameter(let name, let constraint?):
                captures.append(Capture(name: name, segment: index, isCatchAll: false))
                node = constrainedChild(of: node, constraint)
            case .parameter(let name, nil):
                captures.append(Capture(name: name, segment: index, isCatchAll: false))
                node = parameterChild(of: node)
            case .catchAll(let name):
                captures.append(Capture(name: name, segment: index, isCatchAll: true))
                node = catchAllChild(of: node)
            }
        }
        return (node, captureStart)
    }

    // One function per edge kind: a key path with a subscript argument would be instantiated
    // at run time on every call, which dominated building large tables.

    private mutating func literalChild(of node: Int, _ text: String) -> Int {
        if let existing = nodes[node].literals[text] { return existing }
        nodes[node].literals[text] = nodes.count
        return appendNode()
    }

    private mutating func constrainedChild(of node: Int, _ constraint: ParameterConstraint) -> Int {
        if let existing = nodes[node].constrained[constraint] { return existing }
        nodes[node].constrained[constraint] = nodes.count
        return appendNode()
    }

    private mutating func parameterChild(of node: Int) -> Int {
        if let existing = nodes[node].parameter { return existing }
        nodes[node].parameter = nodes.count
        return appendNode()
    }

    private mutating func catchAllChild(of node: Int) -> Int {
        if let existing = nodes[node].catchAll { return existing }
        nodes[node].catchAll = nodes.count
        return appendNode()
    }

    private mutating func appendNode() -> Int {
        nodes.append(Node())
        return nodes.count - 1
    }
}
