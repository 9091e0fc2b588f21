/// Picks, for one URL, the rules whose regex could possibly match, so that PCRE2 only runs
/// for a handful of rules however many are configured.
///
/// Each rule's ``RequiredLiteral`` is indexed by one 4-byte gram of it (the gram shared by
/// the fewest rules), in an open-addressing hash table keyed by the gram packed into a
/// `UInt32`. For a URL, ``markCandidates(in:into:)`` scans the URL's grams once and sets the
/// bit of every rule whose gram occurs; rules with no literal of 4+ bytes are always
/// candidates. Candidates are then confirmed with ``confirms(rule:in:)`` (the whole literal
/// occurs) before the regex runs. Both steps only skip rules that cannot match, so results
/// are the same as running every regex.
struct LiteralPrefilter: Sendable {
    /// Gram length in bytes.
    static let gramLength = 4

    private struct Slot: Sendable {
        var gram: UInt32 = 0
        var start: UInt32 = 0
        /// 0 marks an empty slot.
        var count: UInt32 = 0
    }

    /// Per rule, its required literal (empty when it has none).
    let literals: [[UInt8]]
    /// Bits of the rules that are candidates for every URL.
    private let alwaysCandidates: [UInt64]
    private let slots: [Slot]
    private let postings: [UInt32]
    private let hashShift: UInt32
    /// How many literals contain each gram, for the next prefilter built from this one.
    private let frequency: GramCounts
    /// Per rule, the gram it is indexed by (meaningful for literals of 4+ bytes).
    private let indexGram: [UInt32]

    /// Number of `UInt64` words a candidate bitset needs.
    let wordCount: Int

    /// Builds the index.
    /// - Parameters:
    ///   - literals: per rule, in rule order, its required literal or `nil`.
    ///   - previous: a prefilter to build from: its gram counts are updated with the literals
    ///     that came and went, not counted again, and a rule it had keeps its gram.
    ///   - previousIndex: per rule, its index in `previous` when `previous` has it (with the
    ///     same literal), else `nil`; empty without `previous`.
    init(literals: [[UInt8]?], previous: LiteralPrefilter? = nil, previousIndex: [Int?] = []) {
        let ruleCount = literals.count
        self.literals = literals.map { $0 ?? [] }
        self.wordCount = (ruleCount + 63) / 64

        // How many rules' literals contain each gram, to index every rule by its rarest gram.
        var frequency: GramCounts
        if let previous {
            frequency = previous.frequency
            var kept = [Bool](repeating: false, count: previous.literals.count)
            for case let old? in previousIndex { kept[old] = true }
            for (old, literal) in previous.literals.enumerated() where !kept[old] {
                frequency.count(literal, -1)
            }
            for (rule, literal) in self.literals.enumerated() where previousIndex[rule] == nil {
                frequency.count(literal, +1)
            }
        } else {
            frequency = GramCounts()
            for literal in self.literals { frequency.count(literal, +1) }
        }
        var always = [UInt64](repeating: 0, count: wordCount)
        var indexGram = [UInt32](repeating: 0, count: ruleCount)
        var indexedRuleCount = 0
        for (rule, literal) in self.literals.enumerated() {
            guard literal.count >= Self.gramLength else {
                always[rule >> 6] |= 1 << UInt64(rule & 63)
                continue
            }
            indexedRuleCount += 1
            if let previous, let old = previousIndex[rule] {
                indexGram[rule] = previous.indexGram[old]
                continue
            }
            // The first of the rarest grams.
            var rarest = Self.gram(literal, at: 0)
            var rarestCount = frequency[rarest]
            for offset in stride(from: 1, through: literal.count - Self.gramLength, by: 1) {
                let gram = Self.gram(literal, at: offset)
                let count = frequency[gram]
                if count < rarestCount { (rarest, rarestCount) = (gram, count) }
            }
            indexGram[rule] = rarest
        }
        self.alwaysCandidates = always
        self.frequency = frequency
        self.indexGram = indexGram

        // Postings grouped by gram, rules ascending within a gram: count each gram's rules,
        // give each gram its range, then fill the ranges in rule order.
        var bits: UInt32 = 3
        while (1 << bits) < indexedRuleCount * 2 { bits += 1 }
        let capacity = 1 << Int(bits)
        let hashShift = 32 - bits
        self.hashShift = hashShift
        var slots = [Slot](repeating: Slot(), count: capacity)
        func slot(of gram: UInt32) -> Int {
            var slot = Int((gram &* 0x9E37_79B1) >> hashShift)
            while slots[slot].count != 0, slots[slot].gram != gram { slot = (slot + 1) & (capacity - 1) }
            return slot
        }
        for (rule, literal) in self.literals.enumerated() where literal.count >= Self.gramLength {
            let index = slot(of: indexGram[rule])
            slots[index].gram = indexGram[rule]
            slots[index].count += 1
        }
        var start: UInt32 = 0
        for index in slots.indices where slots[index].count != 0 {
            slots[index].start = start
            start += slots[index].count
        }
        var filled = [UInt32](repeating: 0, count: capacity)
        var postings = [UInt32](repeating: 0, count: indexedRuleCount)
        for (rule, literal) in self.literals.enumerated() where literal.count >= Self.gramLength {
            let index = slot(of: indexGram[rule])
            postings[Int(slots[index].start + filled[index])] = UInt32(rule)
            filled[index] += 1
        }
        self.slots = slots
        self.postings = postings
    }

    /// Writes into `words` (``wordCount`` words) the bitset of rules that may match `subject`.
    func markCandidates(in subject: UnsafeBufferPointer<UInt8>, into words: UnsafeMutableBufferPointer<UInt64>) {
        for index in 0..<wordCount {
            words[index] = alwaysCandidates[index]
        }
        guard !postings.isEmpty, subject.count >= Self.gramLength else { return }
        let mask = slots.count - 1
        slots.withUnsafeBufferPointer { slots in
            postings.withUnsafeBufferPointer { postings in
                var gram: UInt32 = 0
                for position in 0..<subject.count {
                    gram = gram >> 8 | UInt32(subject[position]) << 24
                    guard position >= Self.gramLength - 1 else { continue }
                    var slot = Int((gram &* 0x9E37_79B1) >> hashShift)
                    while slots[slot].count != 0 {
                        if slots[slot].gram == gram {
                            let start = Int(slots[slot].start)
                            for rule in postings[start..<start + Int(slots[slot].count)] {
                                words[Int(rule >> 6)] |= 1 << UInt64(rule & 63)
                            }
                            break
                        }
                        slot = (slot + 1) & mask
                    }
                }
            }
        }
    }

    /// Whether `subject` contains the whole required literal of `rule` (true when it has none).
    func confirms(rule: Int, in subject: UnsafeBufferPointer<UInt8>) -> Bool {
        let literal = literals[rule]
        guard let first = literal.first else { return true }
        guard literal.count <= subject.count else { return false }
        var start = 0
        let lastStart = subject.count - literal.count
        while start <= lastStart {
            if subject[start] == first {
                var matched = 1
                while matched < literal.count, subject[start + matched] == literal[matched] { matched += 1 }
                if matched == literal.count { return true }
            }
            start += 1
        }
        return false
    }

    /// The little-endian packing of `bytes[offset..<offset+4]`, as the rolling scan builds it.
    static func gram(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24
    }
}
