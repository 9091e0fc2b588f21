/// Route id → route index, as an open-addressing table of 32-bit indexes into the route list
/// (the ids themselves are not copied): 16–32 bytes per route where a `[String: Int]` takes
/// about 40. Filled while routes are registered, then kept by the router.
struct RouteIDIndex: Sendable {
    /// Each slot keeps the low 32 bits of its id's ``ByteHash``, so a probe compares ids only
    /// when those bits agree.
    private var table = OpenAddressingTable<HashedIndex>()

    /// Makes room for `more` routes on top of those indexed.
    mutating func reserveCapacity(_ more: Int) {
        table.reserveCapacity(more)
    }

    /// The index of the route with the id `bytes` (whose ``ByteHash`` is `hash`) in `routes`.
    func index(of bytes: UnsafeBufferPointer<UInt8>, hash: Int, in routes: RouteList) -> Int? {
        table.firstIndex(hash: hash) { routes.idEquals(at: Int($0), bytes) }.map(Int.init)
    }

    /// The index of the route `id` in `routes`.
    func index(of id: String, in routes: RouteList) -> Int? {
        var id = id
        return id.withUTF8 { index(of: $0, hash: ByteHash.hash($0), in: routes) }
    }

    /// Adds the route at `index`, whose id has the ``ByteHash`` `hash`.
    mutating func insert(_ index: Int, hash: Int) {
        table.insert(index: Int32(index), hash: hash)
    }
}
