/// The frozen trie: flat arrays of plain structs, allocated once and never mutated, so any
/// number of threads can walk it without locks. This file owns the router's unsafe memory.
final class TrieTable: @unchecked Sendable {
    /// 32 bytes. Edges of a node are contiguous ranges of the edge arrays.
    struct Node {
        /// Where the node's static edges are found: its first edge in ``TrieTable/staticEdges``
        /// (sorted by ``TrieTable/labelPrecedes(_:_:)``) when it has at most
        /// ``TrieTable/hashedSearchLimit`` of them, else its first slot in
        /// ``TrieTable/staticSlots`` (see ``TrieTable/slotCount(forStaticCount:)``).
        var staticStart: Int32 = 0
        var staticCount: Int32 = 0
        var constrainedStart: Int32 = 0
        var constrainedCount: Int32 = 0
        var parameter: Int32 = -1
        var catchAll: Int32 = -1
        var terminalStart: Int32 = 0
        var terminalCount: Int32 = 0
    }

    /// A static edge; its label is `labels[labelOffset..<labelOffset+labelCount]`.
    struct StaticEdge {
        var labelOffset: Int32
        var labelCount: Int32
        var child: Int32
    }

    /// A slot of a wide node's hash index of its static edges: the edge, and 32 bits of its
    /// label's hash that a lookup compares before it reads the edge and the label; `edge` is -1
    /// in an empty slot.
    struct StaticSlot {
        static let empty = StaticSlot(fingerprint: 0, edge: -1)
        var fingerprint: UInt32
        var edge: Int32
    }

    struct ConstrainedEdge {
        var constraint: Int32
        var child: Int32
    }

    /// A pattern ending at a node; scheme and host index `strings` (-1: no restriction).
    struct Terminal {
        var entry: Int32
        var scheme: Int32
        var host: Int32
    }

    /// What the walk needs to know about the request besides its segments: its scheme and
    /// host as indexes into the table's interned strings (``Request/absent`` when the table
    /// has no pattern restricted to them), so the walk compares integers, not strings.
    struct Request {
        static let absent: Int32 = -2
        var scheme: Int32
        /// The index of the host alone: what a host pattern without a port asks for.
        var host: Int32
        /// The index of `host:port`, the port written in the URL or else its scheme's default
        /// (80, 443): what a host pattern with a port asks for.
        var hostAndPort: Int32
        var isAppLink: Bool
    }

    /// Static children at a node up to this count are scanned; above it, binary-searched.
    static let linearScanLimit = 8
    /// Static children at a node above this count are found through the node's hash index
    /// instead. On a loaded server a request finds these tables cold: a binary search over a
    /// hundred edges and their labels reads about 11 cache lines, the index about 3 (a slot, the
    /// edge, its label). With warm caches the binary search is as fast up to a few dozen edges
    /// and the hash costs more, so narrower nodes keep it.
    static let hashedSearchLimit = 32

    let nodes: UnsafeMutableBufferPointer<Node>
    let staticEdges: UnsafeMutableBufferPointer<StaticEdge>
    /// The hash indexes of the nodes with more than ``hashedSearchLimit`` static edges, one
    /// after another, each of ``slotCount(forStaticCount:)`` slots.
    let staticSlots: UnsafeMutableBufferPointer<StaticSlot>
    let labels: UnsafeMutableBufferPointer<UInt8>
    let constrainedEdges: UnsafeMutableBufferPointer<ConstrainedEdge>
    let terminals: UnsafeMutableBufferPointer<Terminal>
    let constraints: [SegmentConstraint]
    let strings: [String]
    private let stringIndex: [String: Int32]

    /// The heap this table holds, in bytes (for benchmarks and `/admin/status`).
    let byteCount: Int

    /// A table whose nodes, static edges and terminals `fill` writes in place, into buffers of
    /// exactly the counts given (every element must be written), and whose wide nodes' hash
    /// indexes it fills through ``insertStaticEdge(_:labelHash:intoSlotsAt:staticCount:of:)``
    /// (`staticSlotCount` slots, made empty first); the other parts are copied.
    init(
        nodeCount: Int, staticEdgeCount: Int, staticSlotCount: Int, terminalCount: Int, labels: [UInt8],
        constrainedEdges: [ConstrainedEdge], constraints: [SegmentConstraint], strings: [String],
        fill: (
            _ nodes: UnsafeMutableBufferPointer<Node>, _ staticEdges: UnsafeMutableBufferPointer<StaticEdge>,
            _ staticSlots: UnsafeMutableBufferPointer<StaticSlot>, _ terminals: UnsafeMutableBufferPointer<Terminal>
        ) -> Void
    ) {
        self.nodes = .allocate(capacity: max(nodeCount, 1))
        self.staticEdges = .allocate(capacity: max(staticEdgeCount, 1))
        self.staticSlots = .allocate(capacity: max(staticSlotCount, 1))
        staticSlots.initialize(repeating: .empty)
        self.terminals = .allocate(capacity: max(terminalCount, 1))
        fill(
            UnsafeMutableBufferPointer(rebasing: nodes[0..<nodeCount]),
            UnsafeMutableBufferPointer(rebasing: staticEdges[0..<staticEdgeCount]),
            UnsafeMutableBufferPointer(rebasing: staticSlots[0..<staticSlotCount]),
            UnsafeMutableBufferPointer(rebasing: terminals[0..<terminalCount]))
        self.labels = Self.copy(labels)
        self.constrainedEdges = Self.copy(constrainedEdges)
        self.constraints = constraints
        self.strings = strings
        var stringIndex: [String: Int32] = [:]
        for (index, string) in strings.enumerated() { stringIndex[string] = Int32(index) }
        self.stringIndex = stringIndex
        self.byteCount =
            nodeCount * MemoryLayout<Node>.stride
            + staticEdgeCount * MemoryLayout<StaticEdge>.stride + labels.count
            + staticSlotCount * MemoryLayout<StaticSlot>.stride
            + constrainedEdges.count * MemoryLayout<ConstrainedEdge>.stride
            + terminalCount * MemoryLayout<Terminal>.stride
    }

    deinit {
        nodes.deallocate()
        staticEdges.deallocate()
        staticSlots.deallocate()
        labels.deallocate()
        constrainedEdges.deallocate()
        terminals.deallocate()
    }

    private static func copy<Element>(_ array: [Element]) -> UnsafeMutableBufferPointer<Element> {
        let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: max(array.count, 1))
        _ = buffer.initialize(from: array)
        return buffer
    }

    /// The request's scheme, host and `host:port` as interned indexes.
    ///
    /// A port never stops a match (design.md §3): a host pattern without a port accepts the
    /// host on any port; one with a port accepts that port, written or the scheme's default
    /// (`https://h/` is `https://h:443/`, RFC 3986 §6.2.3).
    func request(scheme: String, host: String?, port: Int?, isAppLink: Bool) -> Request {
        // Tables without scheme- or host-restricted patterns (most route sets) skip the lookups.
        guard !strings.isEmpty else {
            return Request(scheme: Request.absent, host: Request.absent, hostAndPort: Request.absent, isAppLink: isAppLink)
        }
        let effectivePort = port ?? Self.defaultPort(ofScheme: scheme)
        let hostAndPort = host.flatMap { host in effectivePort.flatMap { stringIndex["\(host):\($0)"] } }
        return Request(
            scheme: stringIndex[scheme] ?? Request.absent,
            host: host.flatMap { stringIndex[$0] } ?? Request.absent,
            hostAndPort: hostAndPort ?? Request.absent,
            isAppLink: isAppLink)
    }

    /// The port a URL of `scheme` means when it names none.
    private static func defaultPort(ofScheme scheme: String) -> Int? {
        switch scheme {
        case "http": 80
        case "https": 443
        default: nil
        }
    }

    /// The entry of the best pattern for `segments`, or -1.
    func lookup(_ segments: UnsafeBufferPointer<PathSegment>, _ request: Request) -> Int32 {
        var observer = UnobservedWalk()
        return walk(0, 0, segments, request, &observer)
    }

    /// The entry of the best pattern for `segments`, or -1, and how many constraint regexes
    /// a PCRE2 limit stopped on the way.
    func lookupCountingLimits(_ segments: UnsafeBufferPointer<PathSegment>, _ request: Request) -> (entry: Int32, limitHits: Int) {
        var observer = UnobservedWalk()
        let entry = walk(0, 0, segments, request, &observer)
        return (entry, observer.limitHits)
    }

    /// The entry of the best pattern for `segments`, or -1, telling `observer` every decision
    /// on the way (``RouterTraceRecorder`` turns them into the `explain` trace). The one walk
    /// behind both ``lookup(_:_:)`` and `explain`, so the two cannot disagree.
    func lookup<Observer: TrieWalkObserver>(
        _ segments: UnsafeBufferPointer<PathSegment>, _ request: Request, observer: inout Observer
    ) -> Int32 {
        walk(0, 0, segments, request, &observer)
    }

    /// Depth-first in priority order: static, constrained, `:param`, `*`. Every node sits at
    /// one depth, so each node is visited at most once per lookup. Specialised per observer:
    /// with ``UnobservedWalk`` the calls to the observer compile to nothing.
    private func walk<Observer: TrieWalkObserver>(
        _ nodeIndex: Int32, _ depth: Int, _ segments: UnsafeBufferPointer<PathSegment>, _ request: Request,
        _ observer: inout Observer
    ) -> Int32 {
        let node = nodes[Int(nodeIndex)]
        if depth == segments.count {
            let found = acceptingEntry(node, request)
            observer.ended(at: node, depth: depth, segment: nil, entry: found)
            return found
        }
        let segment = segments[depth]
        if node.staticCount > 0 {
            if let child = staticChild(node, segment) {
                observer.entered(.static, depth: depth, segment: segment)
                let found = walk(child, depth + 1, segments, request, &observer)
                if found >= 0 { return found }
                observer.backtracked(.static, depth: depth, segment: segment)
            } else {
                observer.refused(.static, depth: depth, segment: segment)
            }
        }
        if node.constrainedCount > 0 {
            let end = Int(node.constrainedStart + node.constrainedCount)
            for edgeIndex in Int(node.constrainedStart)..<end {
                let edge = constrainedEdges[edgeIndex]
                switch constraints[Int(edge.constraint)].check(segment.bytes) {
                case .matched:
                    break
                case .notMatched:
                    observer.refused(.constrained(edge.constraint), depth: depth, segment: segment)
                    continue
                case .limitExceeded:
                    observer.hitLimit(.constrained(edge.constraint), depth: depth, segment: segment)
                    continue
                }
                observer.entered(.constrained(edge.constraint), depth: depth, segment: segment)
                let found = walk(edge.child, depth + 1, segments, request, &observer)
                if found >= 0 { return found }
                observer.backtracked(.constrained(edge.constraint), depth: depth, segment: segment)
            }
        }
        if node.parameter >= 0 {
            observer.entered(.parameter, depth: depth, segment: segment)
            let found = walk(node.parameter, depth + 1, segments, request, &observer)
            if found >= 0 { return found }
            observer.backtracked(.parameter, depth: depth, segment: segment)
        }
        if node.catchAll >= 0 {
            let catchAll = nodes[Int(node.catchAll)]
            let found = acceptingEntry(catchAll, request)
            observer.ended(at: catchAll, depth: depth, segment: segment, entry: found)
            return found
        }
        return -1
    }

    /// The most specific pattern ending here that accepts the request's scheme and host.
    func acceptingEntry(_ node: Node, _ request: Request) -> Int32 {
        guard node.terminalCount > 0 else { return -1 }
        for index in Int(node.terminalStart)..<Int(node.terminalStart + node.terminalCount) {
            let terminal = terminals[index]
            if terminal.scheme < 0 {
                if request.isAppLink { return terminal.entry }
                continue
            }
            guard terminal.scheme == request.scheme else { continue }
            if terminal.host < 0 || terminal.host == request.host || terminal.host == request.hostAndPort {
                return terminal.entry
            }
        }
        return -1
    }

    /// The child of `node` through the static edge labelled `segment`, or `nil`.
    func staticChild(_ node: Node, _ segment: PathSegment) -> Int32? {
        let start = Int(node.staticStart)
        let count = Int(node.staticCount)
        if count <= Self.linearScanLimit {
            for index in start..<(start + count) {
                let edge = staticEdges[index]
                if Int(edge.labelCount) == segment.count, compare(edge, segment) == 0 { return edge.child }
            }
            return nil
        }
        if count > Self.hashedSearchLimit { return hashedStaticChild(node, segment) }
        var low = start
        var high = start + count
        while low < high {
            let middle = (low + high) / 2
            let order = compare(staticEdges[middle], segment)
            if order == 0 { return staticEdges[middle].child }
            if order < 0 { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// ``staticChild(_:_:)`` of a node with more than ``hashedSearchLimit`` static edges.
    private func hashedStaticChild(_ node: Node, _ segment: PathSegment) -> Int32? {
        let start = Int(node.staticStart)
        let count = Int(node.staticCount)
        let hash = ByteHash.hash(segment.bytes)
        let fingerprint = Self.fingerprint(of: hash)
        let mask = Self.slotCount(forStaticCount: count) - 1
        var probe = hash & mask
        while true {
            let slot = staticSlots[start + probe]
            if slot.edge < 0 { return nil }
            if slot.fingerprint == fingerprint {
                let edge = staticEdges[Int(slot.edge)]
                if compare(edge, segment) == 0 { return edge.child }
            }
            probe = (probe + 1) & mask
        }
    }

    /// How many slots of ``staticSlots`` a node with `count` static edges takes: its index's
    /// ``slotCount(forStaticCount:)`` above ``hashedSearchLimit``, else none.
    static func indexSlotCount(forStaticCount count: Int) -> Int {
        count > hashedSearchLimit ? slotCount(forStaticCount: count) : 0
    }

    /// How many slots the hash index of a node with `count` static edges has: a power of two
    /// at least 4/3 of `count`, so that at most three slots in four are taken and every probe
    /// sequence reaches an empty slot.
    static func slotCount(forStaticCount count: Int) -> Int {
        var slots = 16
        while slots * 3 < count * 4 { slots *= 2 }
        return slots
    }

    /// Puts the static edge numbered `edge`, whose label hashes to `labelHash`
    /// (``ByteHash/hash(_:)-(UnsafeBufferPointer<UInt8>)``), into the hash index of the node
    /// with `staticCount` edges whose slots begin at `start`, where ``staticChild(_:_:)`` looks
    /// for it.
    static func insertStaticEdge(
        _ edge: Int32, labelHash: Int, intoSlotsAt start: Int, staticCount: Int,
        of slots: UnsafeMutableBufferPointer<StaticSlot>
    ) {
        let mask = slotCount(forStaticCount: staticCount) - 1
        var probe = labelHash & mask
        while slots[start + probe].edge >= 0 { probe = (probe + 1) & mask }
        slots[start + probe] = StaticSlot(fingerprint: fingerprint(of: labelHash), edge: edge)
    }

    /// The bits of a label's hash a slot keeps: the high half, apart from the low bits that
    /// choose the slot.
    private static func fingerprint(of hash: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: UInt64(bitPattern: Int64(hash)) >> 32)
    }

    /// Byte order of an edge label against a segment: shorter first, then bytes.
    private func compare(_ edge: StaticEdge, _ segment: PathSegment) -> Int {
        let labelCount = Int(edge.labelCount)
        if labelCount != segment.count { return labelCount < segment.count ? -1 : 1 }
        guard let labelStart = labels.baseAddress?.advanced(by: Int(edge.labelOffset)) else { return -1 }
        var index = 0
        while index < labelCount {
            let a = labelStart[index]
            let b = segment.start[index]
            if a != b { return a < b ? -1 : 1 }
            index += 1
        }
        return 0
    }

    /// Orders labels for binary search, the same order as ``compare(_:_:)``.
    static func labelPrecedes(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        lhs.count != rhs.count ? lhs.count < rhs.count : lhs.lexicographicallyPrecedes(rhs)
    }
}
