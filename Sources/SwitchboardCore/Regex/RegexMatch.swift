/// Where a regex matched: one byte range per group, as UTF-8 offsets into the subject.
package struct RegexMatch: Sendable, Hashable {
    /// Index 0 is the whole match, then one entry per capture group; `nil` for a group
    /// that did not participate in the match.
    package let groups: [Range<Int>?]

    /// Creates a match from group ranges (index 0 = whole match).
    package init(groups: [Range<Int>?]) {
        self.groups = groups
    }

    /// The range of `group`, or `nil` if it is unset or above the capture count.
    package subscript(group: Int) -> Range<Int>? {
        group >= 0 && group < groups.count ? groups[group] : nil
    }
}
