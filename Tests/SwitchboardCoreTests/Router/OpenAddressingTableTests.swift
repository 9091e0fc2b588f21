import SwitchboardTestSupport
import Testing

@testable import SwitchboardCore

/// The builder's one hash table: finds what was inserted and nothing else, through collisions,
/// wrap-around at the end of the slots and growth.
struct OpenAddressingTableTests {
    /// A slot that holds its key and a value, hashed by a function the test picks so that it
    /// can make keys collide.
    struct KeySlot: OpenAddressingSlot {
        static let empty = KeySlot(key: -1, value: 0, hash: 0)
        var key: Int32
        var value: Int32
        var hash: Int
        var isEmpty: Bool { key < 0 }
    }

    @Test func findsInsertedKeysAndNothingElse() {
        var table = OpenAddressingTable<KeySlot>()
        for key in Int32(0)..<5 { table.insert(KeySlot(key: key, value: key * 10, hash: Int(key) * 7)) }
        for key in Int32(0)..<5 {
            #expect(table.first(hash: Int(key) * 7) { $0.key == key }?.value == key * 10)
        }
        #expect(table.first(hash: 35) { $0.key == 5 } == nil)
        #expect(table.count == 5)
        #expect(table.capacity == 16)
    }

    /// Keys of one hash sit one after the other, and a run that reaches the last slot goes on
    /// at the first.
    @Test func collidingKeysWrapAroundTheEnd() {
        var table = OpenAddressingTable<KeySlot>()
        for key in Int32(0)..<8 { table.insert(KeySlot(key: key, value: key, hash: 15)) }
        #expect(table.capacity == 16)
        for key in Int32(0)..<8 { #expect(table.first(hash: 15) { $0.key == key }?.key == key) }
        #expect(table.first(hash: 15) { $0.key == 8 } == nil)
        // A key whose own slot is taken by the run is found past it.
        table.insert(KeySlot(key: 100, value: 1, hash: 2))
        #expect(table.first(hash: 2) { $0.key == 100 }?.value == 1)
    }

    /// The table doubles before it is over half full, and keeps every slot when it does.
    @Test func growsAtHalfFull() {
        var table = OpenAddressingTable<KeySlot>()
        for key in Int32(0)..<1000 {
            table.insert(KeySlot(key: key, value: key, hash: Int(key % 3)))
            #expect(table.count * 2 <= table.capacity)
            #expect(table.capacity.nonzeroBitCount == 1)
        }
        #expect(table.capacity == 2048)
        for key in Int32(0)..<1000 { #expect(table.first(hash: Int(key % 3)) { $0.key == key }?.value == key) }
    }

    @Test func reservingMakesRoomAtOnce() {
        var table = OpenAddressingTable<KeySlot>()
        for key in Int32(0)..<5 { table.insert(KeySlot(key: key, value: key, hash: Int(key))) }
        table.reserveCapacity(1000)
        #expect(table.capacity == 2048)
        for key in Int32(5)..<1005 { table.insert(KeySlot(key: key, value: key, hash: Int(key))) }
        #expect(table.capacity == 2048)
        for key in Int32(0)..<1005 { #expect(table.first(hash: Int(key)) { $0.key == key }?.value == key) }
    }

    /// Against a `Dictionary` over random keys kept outside the table (as the route ids and
    /// labels are): every insert-if-absent and every lookup agree. The low 32 bits of the hashes
    /// take few values, so that the bits a ``HashedIndex`` keeps often agree for different keys;
    /// the high bits differ, and the slots drop them.
    @Test(arguments: [1, 2, 3, 4])
    func hashedIndexAgreesWithDictionary(seed: UInt64) {
        var random = SplitMix(seed: seed)
        var keys: [UInt64] = []
        var table = OpenAddressingTable<HashedIndex>()
        var expected: [UInt64: Int32] = [:]
        let hashBits = UInt64(1) << (seed * 3)
        func hash(_ key: UInt64) -> Int { Int(key << 40 | key % hashBits) }
        for _ in 0..<3000 {
            let key = random.next() % 5000
            let found = table.firstIndex(hash: hash(key)) { keys[Int($0)] == key }
            #expect(found == expected[key])
            if found == nil {
                keys.append(key)
                table.insert(index: Int32(keys.count - 1), hash: hash(key))
                expected[key] = Int32(keys.count - 1)
            }
        }
        #expect(table.count == expected.count)
        let disagreeing = (UInt64(0)..<5000).filter { key in
            table.firstIndex(hash: hash(key)) { keys[Int($0)] == key } != expected[key]
        }
        #expect(disagreeing.isEmpty)
    }
}
