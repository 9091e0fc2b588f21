import Testing

@testable import SwitchboardCore

/// AASA components from routes: which patterns apply to a host, their `/` values and order.
struct AppLinkComponentsTests {
    static func route(_ id: String, _ patterns: String..., app: Bool = true) -> Route {
        Route(id: id, module: "m", patterns: patterns, app: app)
    }

    static let routes = [
        route("catch", "/p/*rest"),
        route("param", "/p/:id"),
        route("int", "/p/:id<int>"),
        route("static", "/p/new"),
        route("reviews", "/p/:id/reviews"),
        route("search", "/search(/:q)"),
        route("private", "/account/*", app: false),
        route("other.host", "https://other.example.com/o/:x"),
        route("this.host", "https://shop.example.com/only/:x"),
        route("scheme", "myapp://app/:x"),
        route("http", "http://shop.example.com/insecure"),
        route("root", "/"),
    ]

    static func paths(_ value: JSONValue) -> [String] {
        guard case .array(let items) = value else { return [] }
        return items.compactMap { $0["/"]?.stringValue }
    }

    @Test("the router's priority order, path-only patterns for domains, host patterns for their host")
    func order() {
        let components = AppLinkComponents(routes: Self.routes, domains: ["shop.example.com"])
        #expect(
            Self.paths(components.components(forHost: "shop.example.com")) == [
                "/p/*/reviews", "/p/new", "/p/*", "/only/*", "/search/*", "/account/*", "/search", "/",
            ])
        #expect(Self.paths(components.components(forHost: "other.example.com")) == ["/o/*"])
        #expect(Self.paths(components.components(forHost: "evil.example.com")) == [])
    }

    @Test("app: false is an exclude component; each carries its route id as comment")
    func exclude() throws {
        let components = AppLinkComponents(routes: Self.routes, domains: ["shop.example.com"])
        guard case .array(let items) = components.components(forHost: "SHOP.example.com") else {
            Issue.record("not an array")
            return
        }
        let excluded = items.filter { $0["exclude"] != nil }
        #expect(excluded == [.object([("/", .string("/account/*")), ("exclude", .bool(true)), ("comment", .string("private"))])])
        let comments: [String] = items.compactMap { $0["comment"]?.stringValue }
        #expect(comments.contains("int"))
    }

    @Test("the first component matching a path includes or excludes it as the router's route says")
    func firstMatchIsRoutersChoice() throws {
        var builder = RouterBuilder()
        for route in Self.routes { try builder.register(route) }
        let router = builder.build()
        let components = AppLinkComponents(routes: Self.routes, domains: ["shop.example.com"])
        guard case .array(let items) = components.components(forHost: "shop.example.com") else { return }
        for path in ["/p/new", "/p/42", "/p/x", "/p/x/reviews", "/p/a/b/c", "/search", "/search/shoes", "/account/a/b", "/"] {
            let url = try ParsedURL.parse("https://shop.example.com" + path)
            let route = try #require(try router.match(url, isAppLink: true)?.route, "\(path)")
            let first = try #require(items.first { Self.aasaMatches($0["/"]?.stringValue ?? "", path) }, "\(path)")
            #expect((first["exclude"] == nil) == route.app, "\(path)")
        }
        let unrouted = items.first { Self.aasaMatches($0["/"]?.stringValue ?? "", "/nothing/here") }
        #expect(unrouted == nil)
    }

    /// AASA `/` matching: `*` any run of characters (including `/`), `?` one character.
    static func aasaMatches(_ pattern: String, _ path: String) -> Bool {
        let p = Array(pattern), s = Array(path)
        func match(_ i: Int, _ j: Int) -> Bool {
            if i == p.count { return j == s.count }
            if p[i] == "*" { return (j...s.count).contains { match(i + 1, $0) } }
            guard j < s.count, p[i] == "?" || p[i] == s[j] else { return false }
            return match(i + 1, j + 1)
        }
        return match(0, 0)
    }
}
