/// Route id → route index, as an open-addressing hash table of 32-bit indexes into the route
/// list (the ids themselves are not copied): about 8 bytes per route where a
/// `[String: Int]` takes about 40. Filled while routes are registered, then kept by the router.
struct RouteIDIndex: Sendable {
    /// Route indexes, -1 for an empty slot; the count is a power of two, at least twice the
    /// number of routes.
    private var slots = [Int32](repeating: -1, count: 16)
    private var count = 0

    /// Makes room for `more` routes on top of those in `routes` (the list the index is for).
    mutating func reserveCapacity(_ more: Int, in routes: RouteList) {
        var capacity = slots.count
        while capacity < (count + more) * 2 { capacity *= 2 }
        if capacity > slots.count { rehash(capacity: capacity, routes) }
    }

    /// The index of the route with the id `bytes` (whose ``ByteHash`` is `hash`) in `routes`.
    func index(of bytes: UnsafeBufferPointer<UInt8>, hash: Int, in routes: RouteList) -> Int? {
        let mask = slots.count - 1
        var slot = hash & mask
        while true {
            let candidate = slots[slot]
            guard candidate >= 0 else { return nil }
            if routes.idEquals(at: Int(candidate), bytes) { return Int(candidate) }
            slot = (slot + 1) & mask
        }
    }

    /// The index of the route `id` in `routes`.
    func index(of id: String, in routes: RouteList) -> Int? {
        var id = id
        return id.withUTF8 { index(of: $0, hash: ByteHash.hash($0), in: routes) }
    }

    /// Adds the route at `index` of `routes`, whose id has the ``ByteHash`` `hash`.
    mutating func insert(_ index: Int, hash: Int, in routes: RouteList) {
        if (count + 1) * 2 > slots.count { rehash(capacity: slots.count * 2, routes) }
        place(Int32(index), hash: hash)
        count += 1
    }

    private mutating func place(_ index: Int32, hash: Int) {
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = index
    }

    private mutating func rehash(capacity: Int, _ routes: RouteList) {
        let old = slots
        slots = [Int32](repeating: -1, count: capacity)
        for index in old where index >= 0 {
            place(index, hash: routes.idHash(at: Int(index)))
        }
    }

    /// Bytes of heap held.
    var byteCount: Int { slots.count * MemoryLayout<Int32>.stride }
}
