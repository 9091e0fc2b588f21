/// Route id → route index, as an open-addressing hash table of 32-bit indexes into the route
/// list (the ids themselves are not copied): 16–32 bytes per route where a `[String: Int]` takes
/// about 40. Filled while routes are registered, then kept by the router.
struct RouteIDIndex: Sendable {
    /// A route index and the low 32 bits of its id's ``ByteHash``: a probe compares ids only
    /// when those bits agree, and growing never reads the ids again.
    private struct Slot: Sendable {
        static let empty = Slot(route: -1, hash: 0)
        var route: Int32
        var hash: UInt32
    }

    /// A power of two, at least twice the number of routes.
    private var slots = [Slot](repeating: .empty, count: 16)
    private var count = 0

    /// Makes room for `more` routes on top of those indexed.
    mutating func reserveCapacity(_ more: Int) {
        var capacity = slots.count
        while capacity < (count + more) * 2 { capacity *= 2 }
        if capacity > slots.count { rehash(capacity: capacity) }
    }

    /// The index of the route with the id `bytes` (whose ``ByteHash`` is `hash`) in `routes`.
    func index(of bytes: UnsafeBufferPointer<UInt8>, hash: Int, in routes: RouteList) -> Int? {
        let mask = slots.count - 1
        let low = UInt32(truncatingIfNeeded: hash)
        var position = Int(low) & mask
        while true {
            let slot = slots[position]
            guard slot.route >= 0 else { return nil }
            if slot.hash == low, routes.idEquals(at: Int(slot.route), bytes) { return Int(slot.route) }
            position = (position + 1) & mask
        }
    }

    /// The index of the route `id` in `routes`.
    func index(of id: String, in routes: RouteList) -> Int? {
        var id = id
        return id.withUTF8 { index(of: $0, hash: ByteHash.hash($0), in: routes) }
    }

    /// Adds the route at `index`, whose id has the ``ByteHash`` `hash`.
    mutating func insert(_ index: Int, hash: Int) {
        if (count + 1) * 2 > slots.count { rehash(capacity: slots.count * 2) }
        place(Slot(route: Int32(index), hash: UInt32(truncatingIfNeeded: hash)))
        count += 1
    }

    private mutating func place(_ slot: Slot) {
        let mask = slots.count - 1
        var position = Int(slot.hash) & mask
        while slots[position].route >= 0 { position = (position + 1) & mask }
        slots[position] = slot
    }

    private mutating func rehash(capacity: Int) {
        let old = slots
        slots = [Slot](repeating: .empty, count: capacity)
        for slot in old where slot.route >= 0 { place(slot) }
    }
}
