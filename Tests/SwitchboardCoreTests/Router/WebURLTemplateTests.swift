import Testing

@testable import SwitchboardCore

/// A route's `web` template: validated at registration, filled with percent-encoded params,
/// never letting a capture change the scheme, host or structure of the URL.
struct WebURLTemplateTests {
    static let policy = AppLinkPolicy(schemes: ["myapp"], domains: ["shop.example.com"])

    static func resolver(_ routes: [Route]) throws -> Resolver {
        var builder = ResolverBuilder(policy: policy)
        for route in routes { builder.add(route) }
        return try builder.build()
    }

    static func route(_ pattern: String, web: String, params: [(name: String, value: String)] = []) -> Route {
        Route(id: "r", module: "m", patterns: [pattern], defaultParams: params, web: WebURLTemplate(web))
    }

    @Test("placeholders only after the authority; the port and scheme colon stay literal")
    func pieces() {
        let web = WebURLTemplate("https://m.example.com:8443/p/:id/x:y-z?ref=:source#:frag")
        #expect(web.parameterNames == ["id", "y-z", "source", "frag"])
        #expect(WebURLTemplate("https://m.example.com:8443").parameterNames.isEmpty)
        #expect(WebURLTemplate("https://m.example.com/a:/b").parameterNames.isEmpty)
    }

    @Test(
        "every byte but unreserved is encoded, so a value cannot change the URL's structure",
        arguments: [
            ("42", "https://m.example.com/p/42"),
            ("a b", "https://m.example.com/p/a%20b"),
            ("a/b", "https://m.example.com/p/a%2Fb"),
            ("//evil.com", "https://m.example.com/p/%2F%2Fevil.com"),
            ("@evil.com", "https://m.example.com/p/%40evil.com"),
            ("\\evil.com", "https://m.example.com/p/%5Cevil.com"),
            ("x?y#z", "https://m.example.com/p/x%3Fy%23z"),
            ("javascript:alert(1)", "https://m.example.com/p/javascript%3Aalert%281%29"),
            ("é~-._", "https://m.example.com/p/%C3%A9~-._"),
            ("%2F", "https://m.example.com/p/%252F"),
            ("\u{0}", "https://m.example.com/p/%00"),
        ])
    func encoding(value: String, expected: String) throws {
        let url = WebURLTemplate("https://m.example.com/p/:id").expand([("id", .string(value))])
        #expect(url == expected)
        let parsed = try ParsedURL.parse(url)
        #expect(parsed.scheme == "https")
        #expect(parsed.host == "m.example.com")
        #expect(parsed.userinfo == nil)
        #expect(try parsed.pathSegments() == ["p", value])
    }

    @Test("a repeated value gives the first, a missing one an empty string")
    func arraysAndMissing() {
        let web = WebURLTemplate("https://m.example.com/s/:q?page=:n")
        #expect(web.expand([("q", .array([.string("a"), .string("b")]))]) == "https://m.example.com/s/a?page=")
    }

    @Test("/resolve returns webURL after params, from captures, query and defaults")
    func resolution() throws {
        let resolver = try Self.resolver([
            Self.route("/product/:id", web: "https://m.example.com/p/:id?src=:source", params: [("source", "deeplink")])
        ])
        let resolution = try resolver.resolve("myapp://product/4%2F2?source=mail%20x")
        #expect(resolution.webURL == "https://m.example.com/p/4%2F2?src=mail%20x")
        guard case .object(let members) = resolution.json else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key).suffix(2) == ["params", "webURL"])
        #expect(try Self.resolver([Route(id: "r", module: "m", patterns: ["/p"])]).resolve("myapp://p").webURL == nil)
    }

    @Test("catch-alls and optional groups are known params")
    func knownParams() throws {
        let resolver = try Self.resolver([
            Self.route("/docs/*rest", web: "https://m.example.com/d/:rest"),
            Route(
                id: "search", module: "m", patterns: ["/search(/:query)"],
                web: WebURLTemplate("https://m.example.com/s?q=:query")),
        ])
        #expect(try resolver.resolve("myapp://docs/a/b").webURL == "https://m.example.com/d/a%2Fb")
        #expect(try resolver.resolve("myapp://search").webURL == "https://m.example.com/s?q=")
        #expect(try resolver.resolve("myapp://search/x%20y").webURL == "https://m.example.com/s?q=x%20y")
    }

    @Test(
        "invalid templates are refused at registration, naming the route",
        arguments: [
            "/p/:id", "m.example.com/p/:id", "//m.example.com/p/:id", "ftp://m.example.com/:id",
            "javascript:alert(:id)", "myapp://p/:id", "https:///p/:id", "https://user@m.example.com/p/:id",
            "https://m.example.com/p/:nope", "https://m.example.com:port/p", "https://m.example.com/p/ :id",
            "https://m.example.com:id/p",
        ])
    func invalid(template: String) throws {
        var builder = ResolverBuilder(policy: Self.policy)
        builder.add(Route(id: "bad.web", module: "m", patterns: ["/p/:id"], web: WebURLTemplate(template)))
        let issue = try #require(builder.issues.first)
        #expect(issue.subject == .route(id: "bad.web"))
        #expect(issue.code == "invalid_web")
        #expect(issue.description.hasPrefix("route 'bad.web': web '"))
    }

    @Test("RouteDefinition decodes and encodes web; unknown keys stay errors")
    func definition() throws {
        let definition = RouteDefinition(id: "a", patterns: ["/a/:id"], web: "https://m.example.com/a/:id")
        #expect(definition.route(module: "m").web == WebURLTemplate("https://m.example.com/a/:id"))
    }
}
