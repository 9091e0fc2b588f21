import Testing

@testable import SwitchboardCore

/// A node's static children are searched in a list until it has
/// ``MutableTrie/hashedFanout`` of them, then through the edge table: routes behave the same
/// on both sides of that threshold and across it.
struct WideNodeTests {
    static let fanouts = [1, Int(MutableTrie.hashedFanout) - 1, Int(MutableTrie.hashedFanout), Int(MutableTrie.hashedFanout) + 1, 100]

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
}
