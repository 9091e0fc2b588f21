/// What the resolve pass reports besides the body it writes: each rule (as a
/// ``RulePassObserver``), the router's walk, and the answer's parts. The pass is written once;
/// an observer decides what, if anything, is kept (the methods after `makeWalk` have empty
/// defaults).
///
/// Conformers are structs used as generic arguments, so the pass is specialised for each:
/// ``UnobservedResolve`` (the `/resolve` body alone) costs nothing, `ResolutionCollector`
/// builds a ``Resolution`` value and `ExplainRecorder` the `explain` trace beside it.
protocol ResolveObserver: RulePassObserver {
    /// What watches the trie walk.
    associatedtype Walk: TrieWalkObserver
    /// The walk's observer for a request to `table`.
    func makeWalk(table: TrieTable, request: TrieTable.Request) -> Walk
    /// The router walked the final URL `url` (its decoded `segments`) and ended at pattern
    /// entry `entry`, or -1.
    mutating func routed(
        _ walk: Walk, url: UnsafeBufferPointer<UInt8>, isAppLink: Bool, segments: UnsafeBufferPointer<PathSegment>,
        entry: Int32)
    /// A route matched: `params` is the merge the body was written from.
    mutating func matched(route: Int, pattern: Int, params: ParamsMerge, webURL: String?, openWeb: Bool)
    /// No route matched; `fallback` is the expanded fallback, when one is configured.
    mutating func unmatched(fallback: UnsafeBufferPointer<UInt8>?)
}

extension ResolveObserver {
    @inline(__always) mutating func routed(
        _ walk: Walk, url: UnsafeBufferPointer<UInt8>, isAppLink: Bool, segments: UnsafeBufferPointer<PathSegment>,
        entry: Int32
    ) {}
    @inline(__always) mutating func matched(route: Int, pattern: Int, params: ParamsMerge, webURL: String?, openWeb: Bool) {}
    @inline(__always) mutating func unmatched(fallback: UnsafeBufferPointer<UInt8>?) {}
}

/// The observer of the plain resolve: it keeps nothing but the walk's count of PCRE2 limit
/// hits (every other method is the empty default).
struct UnobservedResolve: ResolveObserver {
    static var visitsEveryRule: Bool { false }
    @inline(__always) func makeWalk(table: TrieTable, request: TrieTable.Request) -> UnobservedWalk { UnobservedWalk() }
}
