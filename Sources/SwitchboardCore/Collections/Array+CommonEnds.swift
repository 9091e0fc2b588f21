extension Array where Element: Equatable {
    /// How many items this list and `other` share at their start and, after that, at their
    /// end: what an edit of a few items in a long list left unchanged. The two never overlap,
    /// so `prefix + suffix` is at most the shorter count.
    package func commonEnds(with other: [Element]) -> (prefix: Int, suffix: Int) {
        let shorter = Swift.min(count, other.count)
        var prefix = 0
        while prefix < shorter, self[prefix] == other[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < shorter - prefix, self[count - 1 - suffix] == other[other.count - 1 - suffix] { suffix += 1 }
        return (prefix, suffix)
    }
}
