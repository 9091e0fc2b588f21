/// How many rules' literals contain each 4-byte gram, for ``LiteralPrefilter`` to index every
/// rule by its rarest gram.
///
/// A flat open-addressing table with a multiplicative hash of the packed gram, grown as grams
/// arrive. Building the prefilter of ten thousand rules touches it a few hundred thousand
/// times, and literals share most of their grams, so it stays small enough for the cache. A
/// prefilter keeps its table, so that the next one, after an admin change of a few rules,
/// counts only the literals that came and went.
struct GramCounts: Sendable {
    private struct Entry: Sendable {
        var gram: UInt32 = 0
        /// Rules whose literal contains the gram.
        var count: UInt32 = 0
        /// The literal that last counted the gram, so a gram repeated in one literal counts
        /// once; 0 marks an empty slot. Stamps only grow, also across copies of the table.
        var stamp: UInt64 = 0
    }

    private var entries: [Entry]
    private var used = 0
    private var stamp: UInt64 = 0
    private var shift: UInt32
    private var mask: Int

    /// An empty table.
    init() {
        let bits: UInt32 = 10
        entries = [Entry](repeating: Entry(), count: 1 << Int(bits))
        shift = 32 - bits
        mask = (1 << Int(bits)) - 1
    }

    /// The slot of `gram`: where it is, or the empty slot where it would go.
    private func slot(of gram: UInt32) -> Int {
        var slot = Int((gram &* 0x9E37_79B1) >> shift)
        while entries[slot].stamp != 0, entries[slot].gram != gram { slot = (slot + 1) & mask }
        return slot
    }

    /// Counts every distinct gram of `literal` once: `+1` for a literal that comes, `-1` for
    /// one that goes (and was counted before).
    mutating func count(_ literal: [UInt8], _ delta: Int32) {
        guard literal.count >= LiteralPrefilter.gramLength else { return }
        stamp += 1
        for offset in 0...(literal.count - LiteralPrefilter.gramLength) {
            let gram = LiteralPrefilter.gram(literal, at: offset)
            var slot = slot(of: gram)
            if entries[slot].stamp == 0 {
                if (used + 1) * 2 > entries.count {
                    grow()
                    slot = self.slot(of: gram)
                }
                used += 1
                entries[slot].gram = gram
            } else if entries[slot].stamp == stamp {
                continue
            }
            entries[slot].stamp = stamp
            entries[slot].count = UInt32(bitPattern: Int32(bitPattern: entries[slot].count) &+ delta)
        }
    }

    /// How many rules' literals contain `gram`.
    subscript(gram: UInt32) -> UInt32 {
        entries[slot(of: gram)].count
    }

    /// Doubles the table, keeping every entry.
    private mutating func grow() {
        let old = entries
        let bits = 32 - shift + 1
        entries = [Entry](repeating: Entry(), count: 1 << Int(bits))
        shift = 32 - bits
        mask = (1 << Int(bits)) - 1
        for entry in old where entry.stamp != 0 {
            entries[slot(of: entry.gram)] = entry
        }
    }
}
