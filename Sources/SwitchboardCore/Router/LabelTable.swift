/// The distinct static segments (labels) of a trie under construction, each stored once in one
/// byte buffer and numbered in order of first appearance. The frozen ``TrieTable`` takes the
/// buffer as its label storage as it is.
struct LabelTable: Sendable {
    /// Where a label sits in ``bytes``.
    struct Span: Sendable {
        var start: Int32
        var count: Int32
    }

    /// Every label, one after the other.
    private(set) var bytes: [UInt8] = []
    /// Label number → its bytes.
    private(set) var spans: [Span] = []
    /// Label numbers by ``ByteHash`` of their bytes; each slot keeps the low 32 bits of the
    /// hash, so a probe compares bytes only when those bits agree.
    private var numbers = OpenAddressingTable<HashedIndex>()

    /// The number of `label`, given a new one if it was not seen before.
    mutating func intern(_ label: UnsafeBufferPointer<UInt8>) -> Int32 {
        let hash = ByteHash.hash(label)
        if let known = find(label, hash: hash) { return known }
        let number = Int32(spans.count)
        spans.append(Span(start: Int32(bytes.count), count: Int32(label.count)))
        bytes.append(contentsOf: label)
        numbers.insert(index: number, hash: hash)
        return number
    }

    /// The number of `label`, or `nil` when it was never interned.
    func find(_ label: UnsafeBufferPointer<UInt8>) -> Int32? {
        find(label, hash: ByteHash.hash(label))
    }

    /// A key for each label number such that, where two keys differ, their order is the
    /// order of ``TrieTable/labelPrecedes(_:_:)``: the length in the top 16 bits, then the
    /// first 6 bytes, big-endian. Equal keys say nothing (compare the bytes then); labels of
    /// 65,535 bytes or more all get the same key.
    func sortKeys() -> [UInt64] {
        bytes.withUnsafeBufferPointer { stored in
            spans.map { span in
                guard span.count < 0xFFFF else { return 0xFFFF << 48 }
                var key = UInt64(span.count) << 48
                for offset in 0..<min(6, Int(span.count)) {
                    key |= UInt64(stored[Int(span.start) + offset]) << (40 - 8 * offset)
                }
                return key
            }
        }
    }

    private func find(_ label: UnsafeBufferPointer<UInt8>, hash: Int) -> Int32? {
        bytes.withUnsafeBufferPointer { stored in
            numbers.firstIndex(hash: hash) { number in
                let span = spans[Int(number)]
                return Int(span.count) == label.count
                    && UnsafeBufferPointer(rebasing: stored[Int(span.start)..<Int(span.start + span.count)]).elementsEqual(label)
            }
        }
    }
}
