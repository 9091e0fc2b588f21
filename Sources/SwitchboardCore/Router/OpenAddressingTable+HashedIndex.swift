/// A slot of an ``OpenAddressingTable`` whose keys live outside it: the key's index in the
/// caller's storage and the low 32 bits of its hash. A probe reads a key only when those bits
/// agree, and growing never reads the keys.
struct HashedIndex: OpenAddressingSlot {
    static let empty = HashedIndex(index: -1, hashBits: 0)

    /// The key's index in the caller's storage; -1 in an empty slot.
    var index: Int32
    /// The low 32 bits of the key's hash.
    var hashBits: UInt32

    /// The slot of the key at `index` whose hash is `hash` (only its low 32 bits are kept).
    init(index: Int32, hash: Int) {
        self.init(index: index, hashBits: UInt32(truncatingIfNeeded: hash))
    }

    private init(index: Int32, hashBits: UInt32) {
        self.index = index
        self.hashBits = hashBits
    }

    var isEmpty: Bool { index < 0 }
    var hash: Int { Int(hashBits) }
}

extension OpenAddressingTable where Slot == HashedIndex {
    /// The index of the key whose hash is `hash` and for whose index `isKey` holds, or `nil`.
    ///
    /// - Parameters:
    ///   - hash: the key's full hash; only its low 32 bits are compared, as the slots keep no more.
    ///   - isKey: whether the key stored at an index is the wanted one; called only for slots
    ///     whose 32 hash bits agree.
    @inline(__always)
    func firstIndex(hash: Int, where isKey: (Int32) -> Bool) -> Int32? {
        let bits = UInt32(truncatingIfNeeded: hash)
        return first(hash: Int(bits)) { $0.hashBits == bits && isKey($0.index) }?.index
    }

    /// Adds the key at `index`, whose hash is `hash`; the caller makes sure it is not in yet.
    mutating func insert(index: Int32, hash: Int) {
        insert(HashedIndex(index: index, hash: hash))
    }
}
