/// What a walk of a ``TrieTable`` reports at each of its decisions, in the order it takes
/// them. The walk is written once; an observer decides what, if anything, is kept.
///
/// Conformers are structs used as generic arguments, so the walk is specialised for each:
/// ``UnobservedWalk`` (the lookup) costs nothing, ``RouterTraceRecorder`` builds `explain`.
protocol TrieWalkObserver {
    /// How many constraint regexes a PCRE2 limit stopped during the walk (for the metrics).
    var limitHits: Int { get }
    /// The walk follows `edge` with the segment at `depth`.
    mutating func entered(_ edge: TrieEdge, depth: Int, segment: PathSegment)
    /// `edge` does not take the segment at `depth`: no static edge has its label, or the
    /// constraint does not accept it.
    mutating func refused(_ edge: TrieEdge, depth: Int, segment: PathSegment)
    /// The regex of `edge` hit a PCRE2 limit on the segment at `depth`: the edge does not take
    /// it (as if refused), and the hit is counted.
    mutating func hitLimit(_ edge: TrieEdge, depth: Int, segment: PathSegment)
    /// Nothing below `edge` matched; the walk goes on with the next edge at `depth`.
    mutating func backtracked(_ edge: TrieEdge, depth: Int, segment: PathSegment)
    /// The walk stops at `node`, at the end of the path (`segment` is `nil`) or at a `*`
    /// edge (`segment` is the first segment it takes); `entry` is the pattern entry that
    /// accepts the request there, or -1.
    mutating func ended(at node: TrieTable.Node, depth: Int, segment: PathSegment?, entry: Int32)
}

/// A kind of edge out of a trie node that takes one segment, in priority order.
enum TrieEdge {
    /// A static segment (`/product`), found by its label.
    case `static`
    /// A constrained `:name<…>` segment; the index of its ``SegmentConstraint`` in the table.
    case constrained(Int32)
    /// A `:name` segment.
    case parameter
}

/// The observer of the plain lookup: it keeps only how many constraint regexes hit a PCRE2
/// limit (for the metrics), and its other, empty methods vanish once the walk is specialised
/// for it.
struct UnobservedWalk: TrieWalkObserver {
    /// Constraint regexes stopped by a PCRE2 limit during the walk.
    var limitHits = 0

    @inline(__always) mutating func entered(_ edge: TrieEdge, depth: Int, segment: PathSegment) {}
    @inline(__always) mutating func refused(_ edge: TrieEdge, depth: Int, segment: PathSegment) {}
    mutating func hitLimit(_ edge: TrieEdge, depth: Int, segment: PathSegment) { limitHits += 1 }
    @inline(__always) mutating func backtracked(_ edge: TrieEdge, depth: Int, segment: PathSegment) {}
    @inline(__always) mutating func ended(at node: TrieTable.Node, depth: Int, segment: PathSegment?, entry: Int32) {}
}
