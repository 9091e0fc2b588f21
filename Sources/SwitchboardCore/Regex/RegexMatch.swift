/// The group ranges of one regex match, as byte offsets into the subject.
///
/// The ranges of up to ``inlineGroupCount`` groups are kept inline, so that the match of a
/// rewrite rule (a handful of groups) allocates nothing; more groups go to an array.
package struct RegexMatch: Sendable, Hashable {
    /// How many groups fit without an allocation (group 0 included).
    static let inlineGroupCount = 8

    /// The number of groups: the whole match plus one per capture group.
    package let count: Int
    /// The start and end of group `n` in lanes `2n` and `2n + 1`; -1 for a group that did not
    /// participate, and for every lane when the groups are in ``overflow``.
    private var inline = SIMD16<Int32>(repeating: -1)
    /// Every group, when there are more than ``inlineGroupCount`` or an offset does not fit an
    /// `Int32`; empty otherwise (so that equal matches have equal storage).
    private var overflow: [Range<Int>?] = []

    /// Creates a match from group ranges (index 0 = whole match).
    package init(groups: [Range<Int>?]) {
        self.init(count: groups.count) { groups[$0] }
    }

    /// Creates a match of `count` groups, asking `range` for each (`nil` when unset).
    init(count: Int, range: (Int) -> Range<Int>?) {
        self.count = count
        if count <= Self.inlineGroupCount {
            for group in 0..<count {
                guard let bounds = range(group) else { continue }
                guard let start = Int32(exactly: bounds.lowerBound), let end = Int32(exactly: bounds.upperBound) else {
                    inline = SIMD16(repeating: -1)
                    overflow = (0..<count).map(range)
                    return
                }
                inline[2 * group] = start
                inline[2 * group + 1] = end
            }
        } else {
            overflow = (0..<count).map(range)
        }
    }

    /// The range of `group`, or `nil` if it is unset or above the capture count.
    package subscript(group: Int) -> Range<Int>? {
        guard group >= 0 && group < count else { return nil }
        if !overflow.isEmpty { return overflow[group] }
        let start = inline[2 * group]
        return start < 0 ? nil : Int(start)..<Int(inline[2 * group + 1])
    }
}
