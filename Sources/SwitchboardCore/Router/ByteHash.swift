/// A fast, unkeyed hash of short byte strings, for the tables a ``RouterBuilder`` fills while
/// it registers routes (trie labels, route ids) and for the frozen trie's index of a wide
/// node's static edges.
///
/// Swift's `Hasher` is seeded and collision-resistant, which costs a setup and a finalisation
/// per call; registering a large config hashes every path segment and id, and that cost
/// dominated. The keys are the service's own configuration (route files and admin pushes, both
/// trusted), so flooding resistance is not needed: a request hashes a path segment only to look
/// it up in a frozen index, which it cannot add to, so a crafted segment at most walks the
/// longest run of slots the configuration made.
enum ByteHash {
    /// Mixes 8 bytes at a time with multiply–xorshift steps; equal bytes give equal hashes.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        let raw = UnsafeRawBufferPointer(bytes)
        var offset = 0
        while offset + 8 <= raw.count {
            state = mix(state ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < raw.count {
            tail |= UInt64(raw[offset]) << shift
            shift += 8
            offset += 1
        }
        return Int(truncatingIfNeeded: mix(state ^ tail))
    }

    /// The hash of a pair of small integers (a trie node and a label number).
    static func hash(_ first: Int32, _ second: Int32) -> Int {
        let packed = UInt64(UInt32(bitPattern: first)) << 32 | UInt64(UInt32(bitPattern: second))
        return Int(truncatingIfNeeded: mix(packed))
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        var value = value &* 0xFF51_AFD7_ED55_8CCD
        value ^= value >> 32
        value = value &* 0xC4CE_B9FE_1A85_EC53
        value ^= value >> 29
        return value
    }
}
