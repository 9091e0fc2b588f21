/// Which rules of a new rule list a previous engine already has compiled, and where.
///
/// An admin change touches a few rules of a list that can hold ten thousand, so the lists
/// before and after share a long common prefix and suffix. Those are matched by position, which
/// costs one equality check per rule (the strings of an unchanged rule share their storage, so
/// it is cheap). Only the rules in between, for example the rules a move shifted by one place,
/// are looked up by value.
struct CompiledRuleReuse {
    private let oldCount: Int
    private let newCount: Int
    private let prefix: Int
    private let suffix: Int
    /// The previous engine's rules between the common prefix and suffix, by value (the first of
    /// equal rules).
    private let middleIndexByRule: [RewriteRule: Int]

    init(old: [RewriteRule], new: [RewriteRule]) {
        oldCount = old.count
        newCount = new.count
        let (prefix, suffix) = old.commonEnds(with: new)
        self.prefix = prefix
        self.suffix = suffix
        var middle: [RewriteRule: Int] = [:]
        let middleRange = prefix..<(old.count - suffix)
        middle.reserveCapacity(middleRange.count)
        for index in middleRange where middle[old[index]] == nil {
            middle[old[index]] = index
        }
        middleIndexByRule = middle
    }

    /// The index in the previous engine of new rule `index`, whose value is `rule`, if the
    /// previous engine has that rule.
    func previousIndex(ofNewRule index: Int, _ rule: RewriteRule) -> Int? {
        if index < prefix { return index }
        if index >= newCount - suffix { return index - newCount + oldCount }
        return middleIndexByRule[rule]
    }
}
