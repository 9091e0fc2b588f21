import Testing

@testable import SwitchboardCore

/// App-link components from routes: which patterns apply to a host, their `/` values, the
/// blocks of one segment count and the exclude components between them.
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
        route("this.host", "https://shop.example.com:443/only/:x"),
        route("other.port", "https://shop.example.com:8443/port/:x"),
        route("scheme", "myapp://app/:x"),
        route("http", "http://shop.example.com/insecure"),
        route("root", "/"),
    ]

    @Test("blocks from the most segments down, each after an exclude of longer paths, in the router's order")
    func order() {
        let components = AppLinkComponents(routes: Self.routes, domains: ["shop.example.com"])
        let shop = components.components(forHost: "shop.example.com")
        #expect(
            shop.map(\.path) == [
                "/account/?*/?*/?*", "/p/?*/?*/?*", "/?*/?*/?*/?*", "/p/?*/reviews", "/p/?*/reviews/", "/account/?*/?*", "/p/?*/?*",
                "/?*/?*/?*", "/p/new", "/p/new/", "/p/?*", "/only/?*", "/search/?*", "/account/?*", "/?*/?*", "/search", "/search/", "/?*",
                "/",
            ])
        #expect(
            shop.filter(\.exclude).map(\.path) == [
                "/account/?*/?*/?*", "/?*/?*/?*/?*", "/account/?*/?*", "/?*/?*/?*", "/account/?*", "/?*/?*", "/?*",
            ])
        #expect(shop.first { $0.path == "/p/?*" }?.comment == "int")
        #expect(components.components(forHost: "OTHER.example.com").map(\.path) == ["/?*/?*/?*", "/o/?*"])
        #expect(components.components(forHost: "evil.example.com").isEmpty)
    }

    @Test("what cannot be said exactly is reported once per route and kind, with a stable code")
    func inexact() {
        let routes =
            Self.routes + [
                Self.route("wild", "/w/a*b"), Self.route("unicode", "/café/:x"), Self.route("uuid", "/u/:id<uuid>", "/v/:id<int>"),
                Self.route("hidden", "/h/:name", app: false), Self.route("hid", "/h/:id<int>"),
            ]
        let components = AppLinkComponents(routes: routes, domains: ["shop.example.com"])
        let found = components.inexactness()
        #expect(
            found.map { "\($0.routeID) \($0.code)" } == [
                "other.port applink_port_left_out", "wild applink_wildcard_literal", "unicode applink_encoded_literal",
                "hid applink_constraint_widened",
            ])
        #expect(found.last?.detail.contains("route 'hidden' (app: false) takes open the app") == true)
        let paths = components.components(forHost: "shop.example.com").map(\.path)
        #expect(paths.contains("/w/a?b"))
        #expect(paths.contains("/caf%C3%A9/?*"))
        #expect(!paths.contains { $0.hasPrefix("/port") || $0.hasPrefix("/insecure") || $0.hasPrefix("/app") })
    }

    @Test("the first component matching a path includes or excludes it as the router's route says, on both platforms")
    func firstMatchIsRoutersChoice() throws {
        var builder = RouterBuilder()
        for route in Self.routes { try builder.register(route) }
        let router = builder.build()
        let published = AppLinkComponents(routes: Self.routes, domains: ["shop.example.com"]).components(forHost: "shop.example.com")
        for path in [
            "/p/new", "/p/42", "/p/x", "/p/x/reviews", "/p/a/b/c", "/p/a/b/c/d/e", "/search", "/search/shoes", "/account/a/b", "/",
            "/only/x", "/p/x/reviews/", "/nothing/here", "/search/a/b", "/only/x/y", "/port/x",
        ] {
            let url = try ParsedURL.parse("https://shop.example.com" + path)
            let app = try router.match(url, isAppLink: true)?.route.app ?? false
            #expect(AppLinkMatchers.appleOpens(published, path: path) == app, "\(path)")
            #expect(AppLinkMatchers.androidOpens(published, path: path) == app, "\(path)")
        }
    }

    @Test("a catch-all after a param and a static segment: deep links up to extraDepth more segments, never a misplaced one")
    func deepCatchAll() {
        let routes = [Self.route("posts", "/u/:id/posts/*rest"), Self.route("x", "/x/:a")]
        let components = AppLinkComponents(routes: routes, domains: ["shop.example.com"])
        #expect(components.inexactness().map(\.code) == ["applink_deep_catch_all"])
        let published = components.components(forHost: "shop.example.com")
        let longest = 4 + AppLinkComponents.extraDepth
        for (path, opens) in [
            ("/u/bob/posts/a", true), ("/u/a/b/posts/c", false), ("/u/b/posts/posts/c/d/e", true),
            ("/u/bob/posts" + String(repeating: "/s", count: longest - 3), true),
            ("/u/bob/posts" + String(repeating: "/s", count: longest - 2), false),
            ("/u/a/posts/b/posts" + String(repeating: "/s", count: longest), false),
        ] {
            #expect(AppLinkMatchers.appleOpens(published, path: path) == opens, "\(path)")
            #expect(AppLinkMatchers.androidOpens(published, path: path) == opens, "\(path)")
        }
    }

    @Test("an app: false catch-all after a param and a static segment never hides a deep link of another app route")
    func deepExcludedCatchAll() {
        let routes = [Self.route("hidden", "/:a/x/*rest", app: false), Self.route("shown", "/:a/:b/*rest"), Self.route("long", "/l/l/l")]
        let published = AppLinkComponents(routes: routes, domains: ["shop.example.com"]).components(forHost: "shop.example.com")
        for (path, opens) in [("/v/w/x/y/z", true), ("/v/x/y/z/w", false), ("/v/w/q/x/y/z", true), ("/l/l/l", true)] {
            #expect(AppLinkMatchers.appleOpens(published, path: path) == opens, "\(path)")
            #expect(AppLinkMatchers.androidOpens(published, path: path) == opens, "\(path)")
        }
    }

    static func first(_ value: JSONValue?) -> JSONValue? {
        guard case .array(let items)? = value else { return nil }
        return items.first
    }

    @Test("AASA and assetlinks carry the same components; an unpublished host gets an exclude-all Android rule")
    func files() throws {
        let fingerprint = Array(repeating: "AB", count: 32).joined(separator: ":")
        let apps = AppsSettings(ios: [.init(appID: "T.com.example")], android: [.init(package: "com.example", sha256: [fingerprint])])
        let components = AppLinkComponents(routes: Self.routes, domains: ["shop.example.com"])
        let aasa = AssociationFiles.appleAppSiteAssociation(apps: apps, components: components, host: "shop.example.com")
        let assetLinks = AssociationFiles.assetLinks(apps: apps, components: components, host: "shop.example.com")
        let apple = try #require(Self.first(aasa["applinks"]?["details"])?["components"])
        let android = try #require(
            Self.first(assetLinks)?["relation_extensions"]?[AssociationFiles.handleAllURLs]?["dynamic_app_link_components"])
        guard case .array(let appleItems) = apple, case .array(let androidItems) = android else {
            Issue.record("not arrays")
            return
        }
        #expect(appleItems.map { $0["/"] } == androidItems.map { $0["/"] })
        #expect(appleItems.first?["comment"] != nil && androidItems.first?["comments"] != nil)
        let evil = AssociationFiles.assetLinks(apps: apps, components: components, host: "evil.example.com")
        #expect(
            Self.first(evil)?["relation_extensions"]?[AssociationFiles.handleAllURLs]?["dynamic_app_link_components"]
                == .array([
                    .object([("/", .string("*")), ("exclude", .bool(true)), ("comments", .string("no route is an app link on this host"))])
                ]))
    }
}
