/// How many rules' literals contain each 4-byte gram, for ``LiteralPrefilter`` to index every
/// rule by its rarest gram.
///
/// A flat open-addressing table with a multiplicative hash of the packed gram, grown as grams
/// arrive: building the prefilter of ten thousand rules touches it a few hundred thousand
/// times, on every admin write, and literals share most of their grams, so the table stays
/// small enough for the cache.
struct GramCounts {
    private struct Entry {
        var gram: UInt32 = 0
        /// Rules whose literal contains the gram; 0 marks an empty slot.
        var count: UInt32 = 0
        /// The last rule counted, so a gram repeated in one literal counts once.
        var lastRule: Int32 = -1
        /// Whether some rule is indexed by the gram.
        var indexed = false
    }

    private var entries: [Entry]
    private var used = 0
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
        while entries[slot].count != 0, entries[slot].gram != gram { slot = (slot + 1) & mask }
        return slot
    }

    /// Counts `gram` for `rule`, once however often the rule's literal contains it. Rules are
    /// counted one after the other.
    mutating func count(_ gram: UInt32, once rule: Int) {
        var slot = slot(of: gram)
        if entries[slot].count == 0 {
            if (used + 1) * 2 > entries.count {
                grow()
                slot = self.slot(of: gram)
            }
            used += 1
            entries[slot].gram = gram
        }
        guard entries[slot].lastRule != Int32(truncatingIfNeeded: rule) else { return }
        entries[slot].count += 1
        entries[slot].lastRule = Int32(truncatingIfNeeded: rule)
    }

    /// How many rules' literals contain `gram`.
    subscript(gram: UInt32) -> UInt32 {
        entries[slot(of: gram)].count
    }

    /// Records that a rule is indexed by `gram` (a counted gram); `true` the first time.
    mutating func markIndexed(_ gram: UInt32) -> Bool {
        let slot = slot(of: gram)
        defer { entries[slot].indexed = true }
        return !entries[slot].indexed
    }

    /// Doubles the table, keeping every entry.
    private mutating func grow() {
        let old = entries
        let bits = 32 - shift + 1
        entries = [Entry](repeating: Entry(), count: 1 << Int(bits))
        shift = 32 - bits
        mask = (1 << Int(bits)) - 1
        for entry in old where entry.count != 0 {
            entries[slot(of: entry.gram)] = entry
        }
    }
}
