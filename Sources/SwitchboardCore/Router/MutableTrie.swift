/// The trie of a ``RouterBuilder`` while routes are registered: flat arrays of small structs,
/// the children and terminals of a node in linked lists through them, and one hash table for
/// the static edges of wide nodes keyed by (node, label number), so registering a segment
/// allocates nothing and hashes its bytes once. ``freeze()`` turns it into the immutable
/// ``TrieTable``, node for node.
///
/// A node's static edges go into the hash table once it has ``hashedFanout`` of them; below
/// that its list is searched. Most nodes have a few children, whose recently appended edges
/// are still in the CPU cache, where each new edge's probe of the table (megabytes at 100k
/// routes) is a cache miss.
struct MutableTrie: Sendable {
    /// 32 bytes; -1 is "none" for every link.
    struct Node: Sendable {
        var firstStatic: Int32 = -1
        var staticCount: Int32 = 0
        var firstConstrained: Int32 = -1
        var constrainedCount: Int32 = 0
        var parameter: Int32 = -1
        var catchAll: Int32 = -1
        var firstTerminal: Int32 = -1
        var terminalCount: Int32 = 0
    }

    /// A static edge to `child`; `next` is the parent's next static edge.
    struct StaticEdge: Linked {
        var label: Int32
        var child: Int32
        var next: Int32
    }

    /// A static edge of a wide node in ``wideStaticEdges``: the whole key (parent, label) and
    /// the child, so that a probe touches one cache line; `parent` is -1 when empty.
    struct StaticEdgeSlot: OpenAddressingSlot {
        static let empty = StaticEdgeSlot(parent: -1, label: 0, child: 0)
        var parent: Int32
        var label: Int32
        var child: Int32

        var isEmpty: Bool { parent < 0 }
        var hash: Int { ByteHash.hash(parent, label) }
    }

    struct ConstrainedEdge: Linked {
        var constraint: ParameterConstraint
        var child: Int32
        var next: Int32
    }

    /// A pattern expansion ending at a node: its entry, and its restriction as indexes into
    /// ``strings`` (-1: no scheme, no host).
    struct Terminal: Linked {
        var entry: Int32
        var scheme: Int32
        var host: Int32
        var next: Int32
    }

    static let root: Int32 = 0
    /// From this many static edges on, a node's edges are found through ``wideStaticEdges``.
    static let hashedFanout: Int32 = 16

    private(set) var nodes: [Node] = [Node()]
    private var staticEdges: [StaticEdge] = []
    /// The static edges of nodes with at least ``hashedFanout`` of them, by (parent, label).
    private var wideStaticEdges = OpenAddressingTable<StaticEdgeSlot>()
    private var constrainedEdges: [ConstrainedEdge] = []
    private var labels = LabelTable()
    private var terminals: [Terminal] = []
    /// The schemes and hosts of restricted patterns (few), numbered.
    private var strings: [String] = []
    private var stringIndex: [String: Int32] = [:]

    /// Makes room for `count` more routes of about one pattern each: room for two nodes and
    /// two static edges a route (room never written costs no memory pages, where growing
    /// copies the whole table). ``wideStaticEdges`` grows as wide nodes appear: its slots are
    /// written when made, and how many edges end up there depends on the shape of the routes.
    mutating func reserveCapacity(_ count: Int) {
        nodes.reserveCapacity(nodes.count + 2 * count)
        staticEdges.reserveCapacity(staticEdges.count + 2 * count)
        terminals.reserveCapacity(terminals.count + count)
    }

    // MARK: - Finding children

    /// The child of `node` through the static segment `label`, if there is one.
    func staticChild(of node: Int32, _ label: UnsafeBufferPointer<UInt8>) -> Int32? {
        guard nodes[Int(node)].staticCount > 0, let number = labels.find(label) else { return nil }
        return staticChild(parent: node, label: number)
    }

    func constrainedChild(of node: Int32, _ constraint: ParameterConstraint) -> Int32? {
        var edge = nodes[Int(node)].firstConstrained
        while edge >= 0 {
            if constrainedEdges[Int(edge)].constraint == constraint { return constrainedEdges[Int(edge)].child }
            edge = constrainedEdges[Int(edge)].next
        }
        return nil
    }

    func parameterChild(of node: Int32) -> Int32? {
        let child = nodes[Int(node)].parameter
        return child >= 0 ? child : nil
    }

    func catchAllChild(of node: Int32) -> Int32? {
        let child = nodes[Int(node)].catchAll
        return child >= 0 ? child : nil
    }

    // MARK: - Making children (the existing one when there is one)

    mutating func makeStaticChild(of node: Int32, _ label: UnsafeBufferPointer<UInt8>) -> Int32 {
        let number = labels.intern(label)
        if let child = staticChild(parent: node, label: number) { return child }
        let child = appendNode()
        let edge = Int32(staticEdges.count)
        staticEdges.append(StaticEdge(label: number, child: child, next: nodes[Int(node)].firstStatic))
        nodes[Int(node)].firstStatic = edge
        nodes[Int(node)].staticCount += 1
        switch nodes[Int(node)].staticCount {
        case ..<Self.hashedFanout:
            break
        case Self.hashedFanout:
            // The node turns wide: all its edges move to the table.
            var index = edge
            while index >= 0 {
                let sibling = staticEdges[Int(index)]
                wideStaticEdges.insert(StaticEdgeSlot(parent: node, label: sibling.label, child: sibling.child))
                index = sibling.next
            }
        default:
            wideStaticEdges.insert(StaticEdgeSlot(parent: node, label: number, child: child))
        }
        return child
    }

    mutating func makeConstrainedChild(of node: Int32, _ constraint: ParameterConstraint) -> Int32 {
        if let existing = constrainedChild(of: node, constraint) { return existing }
        let child = appendNode()
        constrainedEdges.append(
            ConstrainedEdge(constraint: constraint, child: child, next: nodes[Int(node)].firstConstrained))
        nodes[Int(node)].firstConstrained = Int32(constrainedEdges.count - 1)
        nodes[Int(node)].constrainedCount += 1
        return child
    }

    mutating func makeParameterChild(of node: Int32) -> Int32 {
        if let existing = parameterChild(of: node) { return existing }
        let child = appendNode()
        nodes[Int(node)].parameter = child
        return child
    }

    mutating func makeCatchAllChild(of node: Int32) -> Int32 {
        if let existing = catchAllChild(of: node) { return existing }
        let child = appendNode()
        nodes[Int(node)].catchAll = child
        return child
    }

    private mutating func appendNode() -> Int32 {
        nodes.append(Node())
        return Int32(nodes.count - 1)
    }

    // MARK: - Terminals

    /// The entry of the pattern ending at `node` with exactly this scheme/host restriction, if any.
    func entry(at node: Int32, scheme: String?, host: String?) -> Int32? {
        guard let scheme = find(scheme), let host = find(host) else { return nil }
        var index = nodes[Int(node)].firstTerminal
        while index >= 0 {
            let terminal = terminals[Int(index)]
            if terminal.scheme == scheme, terminal.host == host { return terminal.entry }
            index = terminal.next
        }
        return nil
    }

    /// Records that the pattern of `entry`, restricted to `scheme`/`host`, ends at `node`.
    mutating func addTerminal(at node: Int32, entry: Int32, scheme: String?, host: String?) {
        let terminal = Terminal(
            entry: entry, scheme: intern(scheme), host: intern(host), next: nodes[Int(node)].firstTerminal)
        terminals.append(terminal)
        nodes[Int(node)].firstTerminal = Int32(terminals.count - 1)
        nodes[Int(node)].terminalCount += 1
    }

    /// The number of `text` (-1 for none), or `nil` when no pattern uses it.
    private func find(_ text: String?) -> Int32? {
        guard let text else { return -1 }
        return stringIndex[text]
    }

    private mutating func intern(_ text: String?) -> Int32 {
        guard let text else { return -1 }
        if let known = stringIndex[text] { return known }
        strings.append(text)
        stringIndex[text] = Int32(strings.count - 1)
        return Int32(strings.count - 1)
    }

    // MARK: - Static edge table

    /// The child of `parent` through the label numbered `label`: from its list of static
    /// edges, or from the table once the node is wide.
    private func staticChild(parent: Int32, label: Int32) -> Int32? {
        let node = nodes[Int(parent)]
        guard node.staticCount >= Self.hashedFanout else {
            var index = node.firstStatic
            while index >= 0 {
                let edge = staticEdges[Int(index)]
                if edge.label == label { return edge.child }
                index = edge.next
            }
            return nil
        }
        return wideStaticEdges.first(hash: ByteHash.hash(parent, label)) { $0.parent == parent && $0.label == label }?.child
    }

    // MARK: - Freezing

    /// The immutable table: node `n` here is node `n` there; static edges sorted for binary
    /// search and, at the widest nodes, indexed by their labels' hashes; constrained edges in
    /// priority order; terminals most specific first (then in registration order).
    func freeze() -> TrieTable {
        // Constrained edges are rare: gathered first, in node order, into plain arrays.
        var constrainedStarts: [Int32] = []
        var frozenConstrained: [TrieTable.ConstrainedEdge] = []
        var constraints: [SegmentConstraint] = []
        var constraintIndex: [ParameterConstraint: Int32] = [:]
        if !constrainedEdges.isEmpty {
            constrainedStarts.reserveCapacity(nodes.count)
            for node in nodes {
                constrainedStarts.append(Int32(frozenConstrained.count))
                guard node.constrainedCount > 0 else { continue }
                var edges: [ConstrainedEdge] = []
                Self.gather(node.firstConstrained, of: constrainedEdges, sortedBy: { $0.constraint < $1.constraint }, into: &edges)
                for edge in edges {
                    let index: Int32
                    if let existing = constraintIndex[edge.constraint] {
                        index = existing
                    } else {
                        // Patterns were validated when parsed; a regex that fails now accepts nothing.
                        constraints.append((try? SegmentConstraint(edge.constraint)) ?? .regexNeverMatching)
                        index = Int32(constraints.count - 1)
                        constraintIndex[edge.constraint] = index
                    }
                    frozenConstrained.append(TrieTable.ConstrainedEdge(constraint: index, child: edge.child))
                }
            }
        }
        var staticSlotCount = 0
        for node in nodes { staticSlotCount += TrieTable.indexSlotCount(forStaticCount: Int(node.staticCount)) }
        return TrieTable(
            nodeCount: nodes.count, staticEdgeCount: staticEdges.count, staticSlotCount: staticSlotCount,
            terminalCount: terminals.count, labels: labels.bytes, constrainedEdges: frozenConstrained,
            constraints: constraints, strings: strings
        ) { frozenNodes, frozenStaticEdges, frozenStaticSlots, frozenTerminals in
            fill(frozenNodes, frozenStaticEdges, frozenStaticSlots, frozenTerminals, constrainedStarts: constrainedStarts)
        }
    }

    /// Writes the frozen nodes, static edges, wide nodes' hash indexes and terminals (see
    /// ``freeze()``).
    private func fill(
        _ frozenNodes: UnsafeMutableBufferPointer<TrieTable.Node>, _ frozenStaticEdges: UnsafeMutableBufferPointer<TrieTable.StaticEdge>,
        _ frozenStaticSlots: UnsafeMutableBufferPointer<TrieTable.StaticSlot>,
        _ frozenTerminals: UnsafeMutableBufferPointer<TrieTable.Terminal>, constrainedStarts: [Int32]
    ) {
        var frozenStaticCount = 0
        var staticSlotCount = 0
        var terminalCount = 0
        var siblings: [StaticEdge] = []
        var nodeTerminals: [Terminal] = []
        func specificity(_ terminal: Terminal) -> Int {
            RoutePattern.specificity(
                scheme: terminal.scheme >= 0 ? strings[Int(terminal.scheme)] : nil,
                host: terminal.host >= 0 ? strings[Int(terminal.host)] : nil)
        }
        labels.bytes.withUnsafeBufferPointer { labelBytes in
            /// Appends a static edge of a node, and puts it into the node's hash index when the
            /// node has one (slots from `slotStart`, for `staticCount` edges).
            func appendStaticEdge(_ edge: StaticEdge, slotStart: Int?, staticCount: Int) {
                let span = labels.spans[Int(edge.label)]
                frozenStaticEdges[frozenStaticCount] = TrieTable.StaticEdge(
                    labelOffset: span.start, labelCount: span.count, child: edge.child)
                if let slotStart {
                    let label = UnsafeBufferPointer(rebasing: labelBytes[Int(span.start)..<Int(span.start + span.count)])
                    TrieTable.insertStaticEdge(
                        Int32(frozenStaticCount), labelHash: ByteHash.hash(label), intoSlotsAt: slotStart,
                        staticCount: staticCount, of: frozenStaticSlots)
                }
                frozenStaticCount += 1
            }
            func appendTerminal(_ terminal: Terminal) {
                frozenTerminals[terminalCount] = TrieTable.Terminal(entry: terminal.entry, scheme: terminal.scheme, host: terminal.host)
                terminalCount += 1
            }
            let sortKeys = labels.sortKeys()
            func precedes(_ lhs: StaticEdge, _ rhs: StaticEdge) -> Bool {
                let leftKey = sortKeys[Int(lhs.label)]
                let rightKey = sortKeys[Int(rhs.label)]
                if leftKey != rightKey { return leftKey < rightKey }
                let left = labels.spans[Int(lhs.label)]
                let right = labels.spans[Int(rhs.label)]
                return TrieTable.labelPrecedes(
                    UnsafeBufferPointer(rebasing: labelBytes[Int(left.start)..<Int(left.start + left.count)]),
                    UnsafeBufferPointer(rebasing: labelBytes[Int(right.start)..<Int(right.start + right.count)]))
            }
            for (index, node) in nodes.enumerated() {
                var frozen = TrieTable.Node()
                frozen.staticCount = node.staticCount
                let staticCount = Int(node.staticCount)
                let indexSlots = TrieTable.indexSlotCount(forStaticCount: staticCount)
                let slotStart = indexSlots > 0 ? staticSlotCount : nil
                frozen.staticStart = Int32(slotStart ?? frozenStaticCount)
                staticSlotCount += indexSlots
                Self.gather(node.firstStatic, of: staticEdges, sortedBy: precedes, into: &siblings)
                for sibling in siblings { appendStaticEdge(sibling, slotStart: slotStart, staticCount: staticCount) }
                frozen.constrainedStart = constrainedStarts.isEmpty ? 0 : constrainedStarts[index]
                frozen.constrainedCount = node.constrainedCount
                frozen.parameter = node.parameter
                frozen.catchAll = node.catchAll
                frozen.terminalStart = Int32(terminalCount)
                frozen.terminalCount = node.terminalCount
                // Entries are numbered in registration order, which only orders terminals whose
                // restrictions never accept the same URL.
                Self.gather(
                    node.firstTerminal, of: terminals,
                    sortedBy: { lhs, rhs in
                        let (left, right) = (specificity(lhs), specificity(rhs))
                        return left != right ? left > right : lhs.entry < rhs.entry
                    },
                    into: &nodeTerminals)
                for terminal in nodeTerminals { appendTerminal(terminal) }
                frozenNodes[index] = frozen
            }
        }
    }

    /// Replaces the contents of `list` (kept for its capacity) with the elements of a linked
    /// list kept in `elements`, from index `first` (-1: empty), in `order`.
    private static func gather<Element: Linked>(
        _ first: Int32, of elements: [Element], sortedBy order: (Element, Element) -> Bool, into list: inout [Element]
    ) {
        list.removeAll(keepingCapacity: true)
        var index = first
        while index >= 0 {
            let element = elements[Int(index)]
            list.append(element)
            index = element.next
        }
        if list.count > 1 { list.sort(by: order) }
    }
}

/// An element of a linked list kept in an array: `next` is the index of the following element,
/// -1 at the end.
private protocol Linked: Sendable {
    var next: Int32 { get }
}
