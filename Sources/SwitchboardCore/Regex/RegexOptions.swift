/// The limits a ``CompiledRegex`` matches with, so that a pathological pattern such as
/// `(a+)+$` gives up quickly instead of stalling a request.
///
/// A match that exceeds either limit reports ``RegexSearchResult/limitExceeded``.
package struct RegexOptions: Sendable, Hashable {
    /// PCRE2's match limit: how many times its internal `match()` may be called (the JIT
    /// counts differently but equally bounded). PCRE2's own default is 10,000,000.
    package var matchLimit: UInt32
    /// PCRE2's depth limit: how deep backtracking may nest (bounds the heap used by the
    /// interpreter; the JIT ignores it and is bounded by its stack instead).
    package var depthLimit: UInt32

    /// Creates limits.
    package init(matchLimit: UInt32 = 100_000, depthLimit: UInt32 = 10_000) {
        self.matchLimit = matchLimit
        self.depthLimit = depthLimit
    }

    /// Match limit 100,000 and depth limit 10,000: ample for URL-sized subjects.
    package static let `default` = RegexOptions()
}
