import Testing

@testable import SwitchboardCore

/// While routes are registered, a node's static children are searched in a list until it has
/// ``MutableTrie/hashedFanout`` of them, then through the edge table; in the frozen trie, a
/// node's static children are scanned, binary-searched, or (above ``TrieTable/hashedSearchLimit``)
/// found through its hash index.
/// Routes behave the same on both sides of each threshold and across it.
struct WideNodeTests {
    static let fanouts = [
        1, TrieTable.linearScanLimit, TrieTable.linearScanLimit + 1, Int(MutableTrie.hashedFanout) - 1,
        Int(MutableTrie.hashedFanout), Int(MutableTrie.hashedFanout) + 1, TrieTable.hashedSearchLimit,
        TrieTable.hashedSearchLimit + 1, 100, 1_000,
    ]

    /// `count` routes `/w/child{n}/:id`, registered in the given order.
    static func builder(children count: Int, reversed: Bool = false) throws -> RouterBuilder {
        var builder = RouterBuilder()
        let numbers = reversed ? Array((0..<count).reversed()) : Array(0..<count)
        for number in numbers {
            try builder.register(Route(id: "child\(number)", module: "m", patterns: ["/w/child\(number)/:id"]))
        }
        return builder
    }

    static func matchedID(_ router: Router, _ url: String) throws -> String? {
        try router.match(ParsedURL.parse(url), isAppLink: true)?.route.id
    }

    @Test(arguments: fanouts)
    func everyChildResolvesInEitherRegistrationOrder(count: Int) throws {
        for reversed in [false, true] {
            let router = try Self.builder(children: count, reversed: reversed).build()
            for number in 0..<count {
                #expect(try Self.matchedID(router, "myapp://w/child\(number)/7") == "child\(number)")
            }
            #expect(try Self.matchedID(router, "myapp://w/child\(count)/7") == nil)
            #expect(try Self.matchedID(router, "myapp://w/child/7") == nil)
        }
    }

    @Test(arguments: fanouts)
    func aSecondRouteOnAChildIsAConflictNamingTheFirst(count: Int) throws {
        var builder = try Self.builder(children: count)
        for number in [0, count / 2, count - 1] {
            #expect {
                try builder.register(Route(id: "again\(number)", module: "m", patterns: ["/w/child\(number)/:n"]))
            } throws: { error in
                let error = error as? RouteRegistrationError
                return error?.kind == .conflict && error?.otherRouteID == "child\(number)"
            }
            // Through the parser's path too (an optional group: two expansions).
            #expect {
                try builder.register(Route(id: "grouped\(number)", module: "m", patterns: ["/w/child\(number)/:n(/more)"]))
            } throws: { error in
                (error as? RouteRegistrationError)?.otherRouteID == "child\(number)"
            }
        }
        #expect(builder.count == count)
    }

    @Test(arguments: fanouts)
    func newChildrenAndDeeperRoutesAfterTheNodeIsWide(count: Int) throws {
        var builder = try Self.builder(children: count)
        try builder.register(Route(id: "static", module: "m", patterns: ["/w/child0/fixed"]))
        try builder.register(Route(id: "late", module: "m", patterns: ["/w/late/:id"]))
        let router = builder.build()
        #expect(try Self.matchedID(router, "myapp://w/child0/fixed") == "static")
        #expect(try Self.matchedID(router, "myapp://w/child0/other") == "child0")
        #expect(try Self.matchedID(router, "myapp://w/late/1") == "late")
        #expect(try Self.matchedID(router, "myapp://w/child\(count - 1)/1") == "child\(count - 1)")
    }

    @Test func aHashIndexKeepsAQuarterOfItsSlotsFree() {
        for count in (TrieTable.hashedSearchLimit + 1)...5_000 {
            let slots = TrieTable.slotCount(forStaticCount: count)
            #expect(slots >= 16 && slots & (slots - 1) == 0, "\(count)")
            #expect(slots * 3 >= count * 4, "\(count)")
            #expect(slots == 16 || slots * 3 < count * 8, "\(count): more slots than needed")
        }
    }

    /// Several wide nodes in one trie, each with an index of its own next to the others': every
    /// child is found under its own parent and under no other.
    @Test func wideNodesSideBySideKeepTheirOwnChildren() throws {
        var builder = RouterBuilder()
        let parents = ["a", "b", "c"]
        let count = TrieTable.hashedSearchLimit + 8
        for parent in parents {
            for number in 0..<count {
                try builder.register(
                    Route(id: "\(parent)\(number)", module: "m", patterns: ["/\(parent)/\(parent)child\(number)/:id"]))
            }
        }
        let router = builder.build()
        for parent in parents {
            for number in 0..<count {
                #expect(try Self.matchedID(router, "myapp://\(parent)/\(parent)child\(number)/1") == "\(parent)\(number)")
                #expect(try Self.matchedID(router, "myapp://\(parent == "a" ? "b" : "a")/\(parent)child\(number)/1") == nil)
            }
        }
    }

    /// Segments of every length a wide node's labels have, and of none, each absent: a lookup
    /// that misses walks its probe run to an empty slot, whatever the fingerprint says.
    @Test func absentSegmentsOfAWideNodeFindNothing() throws {
        let router = try Self.builder(children: 100).build()
        for absent in ["c", "child", "child1000", "child-1", "chile1", "Child1", "child01", "child1%20", ""] {
            #expect(try Self.matchedID(router, "myapp://w/\(absent)/7") == nil, "\(absent)")
        }
    }
}
