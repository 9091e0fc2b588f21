import Testing

@testable import SwitchboardCore

/// The compact route storage gives back exactly the routes it was given, and the id index
/// finds each of them.
struct RouteListTests {
    static let routes: [Route] = [
        Route(id: "a", module: "m", patterns: ["/a"]),
        Route(
            id: "product.detail.with-a-long-id", module: "product", patterns: ["/product/:id/with/a/long/pattern"],
            target: .object([("page", .string("ProductDetail")), ("tab", .number(2))]),
            defaultParams: [(name: "source", value: "deeplink")]),
        Route(
            id: "café", module: "product", patterns: ["/caf%C3%A9", "shopapp://café(/:x)"],
            target: .object([("page", .string("ProductDetail")), ("tab", .number(2))]),
            defaultParams: [(name: "source", value: "deeplink")], web: WebURLTemplate("https://m.example.com/c"),
            app: false, minAppVersion: "5.2.0"),
        Route(id: "b", module: "m", patterns: ["/b"], target: .object([("page", .string("B"))])),
        Route(id: "c", module: "other", patterns: ["/c"], defaultParams: [(name: "x", value: "1"), (name: "y", value: "")]),
    ]

    @Test func roundTrip() {
        let list = RouteList(Self.routes)
        #expect(Array(list) == Self.routes)
        #expect(list.map(\.defaultParams.count) == Self.routes.map(\.defaultParams.count))
        #expect(list.indices.map { list.id(at: $0) } == Self.routes.map(\.id))
        #expect(list[2].web == Self.routes[2].web && list[2].app == false && list[2].minAppVersion == "5.2.0")
        #expect(list.pattern(at: 2, number: 1) == "shopapp://café(/:x)")
    }

    @Test func idIndexFindsEveryRoute() throws {
        var builder = RouterBuilder()
        for route in Self.routes { try builder.register(route) }
        for n in 0..<2000 { try builder.register(Route(id: "bulk\(n)", module: "bulk", patterns: ["/bulk/\(n)/:id"])) }
        let router = builder.build()
        for (index, route) in Self.routes.enumerated() {
            #expect(router.routeIndex(id: route.id) == index)
            #expect(router.route(id: route.id) == route)
        }
        #expect(router.routeIndex(id: "bulk1999") == Self.routes.count + 1999)
        #expect(router.routeIndex(id: "bulk2000") == nil)
        #expect(router.routeIndex(id: "") == nil)
        #expect(router.routeIndex(id: "caf") == nil)
    }

    @Test func matchGivesTheRegisteredPatternOfEachExpansion() throws {
        var builder = RouterBuilder()
        for route in Self.routes { try builder.register(route) }
        let router = builder.build()
        let match = try #require(try router.match(try ParsedURL.parse("shopapp://café/9"), isAppLink: true))
        #expect(match.route.id == "café")
        #expect(match.pattern == "shopapp://café(/:x)")
        #expect(match.captures.map(\.value) == ["9"])
        let other = try #require(try router.match(try ParsedURL.parse("shopapp://product/7/with/a/long/pattern"), isAppLink: true))
        #expect(other.pattern == "/product/:id/with/a/long/pattern")
        #expect(other.route.target == Self.routes[1].target)
    }

    /// A route refused for a conflict leaves no captures behind for the routes after it.
    @Test func refusedRouteLeavesNoCaptures() throws {
        var builder = RouterBuilder()
        try builder.register(Route(id: "a", module: "m", patterns: ["/s/:a"]))
        #expect(throws: RouteRegistrationError.self) {
            try builder.register(Route(id: "b", module: "m", patterns: ["/s/:b"]))
        }
        try builder.register(Route(id: "c", module: "m", patterns: ["/t/:c/:d"]))
        let router = builder.build()
        let match = try #require(try router.match(try ParsedURL.parse("shopapp://t/x/y"), isAppLink: true))
        #expect(match.route.id == "c")
        #expect(match.captures.map(\.name) == ["c", "d"])
        #expect(match.captures.map(\.value) == ["x", "y"])
        #expect(try router.match(try ParsedURL.parse("shopapp://s/1"), isAppLink: true)?.captures.map(\.name) == ["a"])
    }

    /// Thousands of routes grow every table of the builder (labels, static edges, ids) from its
    /// smallest size; afterwards every route is still found by URL and by id, and conflicts and
    /// repeated ids are still refused, naming the route they clash with.
    @Test func builderTablesGrowWithoutLosingAnything() throws {
        var builder = RouterBuilder()
        for n in 0..<5000 {
            try builder.register(Route(id: "r\(n)", module: "m", patterns: ["/g\(n % 50)/item\(n)/:id"]))
        }
        let conflict = #expect(throws: RouteRegistrationError.self) {
            try builder.register(Route(id: "clash", module: "m", patterns: ["/g7/item4007/:other"]))
        }
        #expect(conflict?.kind == .conflict && conflict?.otherRouteID == "r4007")
        let repeated = #expect(throws: RouteRegistrationError.self) {
            try builder.register(Route(id: "r123", module: "m", patterns: ["/elsewhere"]))
        }
        #expect(repeated?.kind == .duplicateID)
        let router = builder.build()
        #expect(router.routes.count == 5000)
        for n in stride(from: 0, to: 5000, by: 7) {
            let match = try router.match(try ParsedURL.parse("shopapp://g\(n % 50)/item\(n)/x\(n)"), isAppLink: true)
            #expect(match?.route.id == "r\(n)")
            #expect(match?.captures.map(\.value) == ["x\(n)"])
            #expect(router.routeIndex(id: "r\(n)") == n)
        }
        #expect(try router.match(try ParsedURL.parse("shopapp://g1/item2/x"), isAppLink: true)?.route == nil)
    }
}
