/// A slot of an ``OpenAddressingTable``: a few small integers that lead to a key and, where it
/// is not in the slot itself, to the hash of that key.
protocol OpenAddressingSlot: Sendable {
    /// The slot that holds nothing; the table starts filled with it.
    static var empty: Self { get }
    /// Whether this slot holds nothing.
    var isEmpty: Bool { get }
    /// The hash the slot is placed by. Growing the table moves every slot by it, so it must
    /// come from the slot alone: keys kept elsewhere are not read again.
    var hash: Int { get }
}

/// A hash table of small slots for the tables a ``RouterBuilder`` fills while it registers
/// routes (route ids, trie labels, the static edges of wide trie nodes).
///
/// Open addressing with linear probing over a power-of-two number of slots, at most half full,
/// doubled when an insertion would pass that. The slots are plain values in one array, so a
/// probe touches one or two cache lines and the table allocates only when it grows. Keys need
/// not live in the table: a slot may hold an index into the caller's storage, and the caller
/// compares keys in the closure it gives ``first(hash:where:)``. There is no removal: the
/// builder only adds.
///
/// ```swift
/// var table = OpenAddressingTable<HashedIndex>()
/// table.insert(HashedIndex(index: 0, hash: hashOfKey0))
/// let found = table.firstIndex(hash: hashOfKey0) { keys[Int($0)] == key0 }
/// ```
struct OpenAddressingTable<Slot: OpenAddressingSlot>: Sendable {
    /// A power of two, at least twice ``count``.
    private var slots: [Slot]
    /// How many slots are not empty.
    private(set) var count = 0

    /// An empty table of 16 slots.
    init() {
        slots = [Slot](repeating: .empty, count: 16)
    }

    /// How many slots the table has (empty ones included).
    var capacity: Int { slots.count }

    /// Makes room for `more` slots on top of those in the table, so that a large batch does not
    /// move every slot at each doubling.
    mutating func reserveCapacity(_ more: Int) {
        var capacity = slots.count
        while capacity < (count + more) * 2 { capacity *= 2 }
        if capacity > slots.count { rehash(capacity: capacity) }
    }

    /// The first slot on the probe sequence of `hash` that `matches`, or `nil` when an empty
    /// slot comes first.
    ///
    /// - Parameters:
    ///   - hash: the ``OpenAddressingSlot/hash`` that the slot of the wanted key has.
    ///   - matches: whether a slot holds the wanted key; called on non-empty slots only.
    @inline(__always)
    func first(hash: Int, where matches: (Slot) -> Bool) -> Slot? {
        let mask = slots.count - 1
        var position = hash & mask
        while true {
            let slot = slots[position]
            if slot.isEmpty { return nil }
            if matches(slot) { return slot }
            position = (position + 1) & mask
        }
    }

    /// Adds `slot`, growing the table first when it would be over half full. The table does
    /// not look for an equal key: the caller does that with ``first(hash:where:)`` first.
    mutating func insert(_ slot: Slot) {
        if (count + 1) * 2 > slots.count { rehash(capacity: slots.count * 2) }
        place(slot)
        count += 1
    }

    /// Writes `slot` into the first empty slot of its probe sequence.
    @inline(__always)
    private mutating func place(_ slot: Slot) {
        let mask = slots.count - 1
        var position = slot.hash & mask
        while !slots[position].isEmpty { position = (position + 1) & mask }
        slots[position] = slot
    }

    private mutating func rehash(capacity: Int) {
        let old = slots
        slots = [Slot](repeating: .empty, count: capacity)
        for slot in old where !slot.isEmpty { place(slot) }
    }
}
