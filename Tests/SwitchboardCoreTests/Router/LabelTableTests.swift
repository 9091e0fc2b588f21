import Testing

@testable import SwitchboardCore

struct LabelTableTests {
    /// Labels whose keys tie or nearly tie: equal prefixes, NUL bytes, multi-byte UTF-8, and
    /// labels too long for the length field.
    static let labels: [[UInt8]] = {
        let texts = ["a", "b", "ab", "ba", "abcdef", "abcdeg", "abcdefg", "abcdefh", "abcdefgh", "child1", "child10", "child11", "é", "ée"]
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 70_000)
        return texts.map { Array($0.utf8) } + [
            [0], [UInt8(ascii: "a"), 0], [0, 0], long, long + [1], long.dropLast() + [UInt8(ascii: "y")],
        ]
    }()

    @Test func interningNumbersEachLabelOnceInOrderOfFirstAppearance() {
        var table = LabelTable()
        let numbers = (Self.labels + Self.labels).map { label in label.withUnsafeBufferPointer { table.intern($0) } }
        #expect(numbers == Array(0..<Int32(Self.labels.count)) + Array(0..<Int32(Self.labels.count)))
        for (number, label) in Self.labels.enumerated() {
            #expect(label.withUnsafeBufferPointer { table.find($0) } == Int32(number))
        }
        #expect([UInt8]("absent".utf8).withUnsafeBufferPointer { table.find($0) } == nil)
    }

    @Test func differingSortKeysOrderLabelsAsTheFrozenTrieDoes() {
        var table = LabelTable()
        for label in Self.labels { _ = label.withUnsafeBufferPointer { table.intern($0) } }
        let keys = table.sortKeys()
        #expect(keys.count == Self.labels.count)
        for (i, left) in Self.labels.enumerated() {
            for (j, right) in Self.labels.enumerated() where keys[i] != keys[j] {
                let precedes = left.withUnsafeBufferPointer { l in right.withUnsafeBufferPointer { TrieTable.labelPrecedes(l, $0) } }
                #expect((keys[i] < keys[j]) == precedes, "\(i) \(j)")
            }
        }
        // Keys tell most labels apart: only the long ones and shared 6-byte prefixes tie.
        #expect(Set(keys).count >= Self.labels.count - 5)
    }
}
