/// Route id → route index, as an open-addressing hash table of 32-bit indexes into the route
/// list (the ids themselves are not copied): about 8 bytes per route where a
/// `[String: Int]` takes about 40.
struct RouteIDIndex: Sendable {
    /// Route indexes, -1 for an empty slot; the count is a power of two, at least twice the
    /// number of routes.
    private let slots: [Int32]

    init(_ routes: RouteList) {
        var capacity = 16
        while capacity < routes.count * 2 { capacity *= 2 }
        var slots = [Int32](repeating: -1, count: capacity)
        let mask = capacity - 1
        for index in routes.indices {
            var slot = routes.idHash(at: index) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index)
        }
        self.slots = slots
    }

    /// The index of the route `id` in `routes` (the list this index was built from).
    func index(of id: String, in routes: RouteList) -> Int? {
        var id = id
        return id.withUTF8 { bytes -> Int? in
            let mask = slots.count - 1
            var slot = RouteList.hash(bytes) & mask
            while true {
                let candidate = slots[slot]
                guard candidate >= 0 else { return nil }
                if routes.idEquals(at: Int(candidate), bytes) { return Int(candidate) }
                slot = (slot + 1) & mask
            }
        }
    }

    /// Bytes of heap held.
    var byteCount: Int { slots.count * MemoryLayout<Int32>.stride }
}
