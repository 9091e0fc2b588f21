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

    /// Number of `UInt64` words a candidate bitset needs.
    let wordCount: Int

    /// Builds the index.
    /// - Parameter literals: per rule, in rule order, its required literal or `nil`.
    init(literals: [[UInt8]?]) {
        let ruleCount = literals.count
        self.literals = literals.map { $0 ?? [] }
        self.wordCount = (ruleCount + 63) / 64

        // How many rules' literals contain each gram, to index every rule by its rarest gram.
        var frequency: [UInt32: Int] = [:]
        for literal in self.literals where literal.count >= Self.gramLength {
            var seen = Set<UInt32>()
            for offset in 0..<(literal.count - Self.gramLength + 1) {
                let gram = Self.gram(literal, at: offset)
                if seen.insert(gram).inserted { frequency[gram, default: 0] += 1 }
            }
        }
        var always = [UInt64](repeating: 0, count: wordCount)
        var entries: [(gram: UInt32, rule: UInt32)] = []
        for (rule, literal) in self.literals.enumerated() {
            guard literal.count >= Self.gramLength else {
                always[rule >> 6] |= 1 << UInt64(rule & 63)
                continue
            }
            var rarest = Self.gram(literal, at: 0)
            for offset in 1..<(literal.count - Self.gramLength + 1) {
                let gram = Self.gram(literal, at: offset)
                if frequency[gram, default: 0] < frequency[rarest, default: 0] { rarest = gram }
            }
            entries.append((rarest, UInt32(rule)))
        }
        self.alwaysCandidates = always

        // Postings grouped by gram, rules ascending within a gram.
        entries.sort { ($0.gram, $0.rule) < ($1.gram, $1.rule) }
        var distinct = 0
        for (offset, entry) in entries.enumerated() where offset == 0 || entries[offset - 1].gram != entry.gram {
            distinct += 1
        }
        var bits: UInt32 = 3
        while (1 << bits) < distinct * 2 { bits += 1 }
        let capacity = 1 << Int(bits)
        self.hashShift = 32 - bits
        var slots = [Slot](repeating: Slot(), count: capacity)
        var postings: [UInt32] = []
        postings.reserveCapacity(entries.count)
        var offset = 0
        while offset < entries.count {
            let gram = entries[offset].gram
            let start = postings.count
            while offset < entries.count, entries[offset].gram == gram {
                postings.append(entries[offset].rule)
                offset += 1
            }
            var slot = Int((gram &* 0x9E37_79B1) >> hashShift)
            while slots[slot].count != 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = Slot(gram: gram, start: UInt32(start), count: UInt32(postings.count - start))
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
    private static func gram(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24
    }
}
