import Testing

@testable import SwitchboardCore

/// The pattern grammar: valid forms, expansions, and precise errors.
struct PatternParserTests {
    @Test func staticAndParameters() throws {
        let patterns = try RoutePattern.parse("/product/:id/reviews/:page<int>")
        #expect(patterns.count == 1)
        #expect(patterns[0].scheme == nil && patterns[0].host == nil)
        #expect(
            patterns[0].segments == [
                .literal("product"), .parameter(name: "id", constraint: nil), .literal("reviews"),
                .parameter(name: "page", constraint: .int),
            ])
        #expect(patterns[0].parameterNames == ["id", "page"])
    }

    @Test func schemeAndHostRestrictions() throws {
        let custom = try #require(try RoutePattern.parse("MyApp://Product/:id").first)
        #expect(custom.scheme == "myapp")
        #expect(custom.host == nil)
        #expect(custom.segments == [.literal("Product"), .parameter(name: "id", constraint: nil)])
        let web = try #require(try RoutePattern.parse("HTTPS://Shop.Example.com/p/*rest").first)
        #expect(web.scheme == "https")
        #expect(web.host == "shop.example.com")
        #expect(web.segments == [.literal("p"), .catchAll(name: "rest")])
    }

    /// A pattern's port is read as a URL's port is: `:0443` is `:443`, an empty port is none,
    /// and an IPv6 literal's colons are not a port.
    @Test(arguments: [
        ("https://Shop.Example.com:0443/p", "shop.example.com:443"), ("https://shop.example.com:/p", "shop.example.com"),
        ("https://shop.example.com:8443/p", "shop.example.com:8443"), ("https://[::1]/p", "[::1]"),
        ("https://[::1]:08443/p", "[::1]:8443"),
    ])
    func portsAreNormalised(text: String, host: String) throws {
        #expect(try RoutePattern.parse(text).first?.host == host)
    }

    @Test func constraintsKeepRegexParentheses() throws {
        let pattern = try #require(try RoutePattern.parse("/t/:tab<(home|cart)>(/:x<(?<n>[0-9]+)>)").first)
        #expect(
            pattern.segments == [
                .literal("t"), .parameter(name: "tab", constraint: .regex("(home|cart)")),
                .parameter(name: "x", constraint: .regex("(?<n>[0-9]+)")),
            ])
    }

    @Test func optionalGroupsExpandLongestFirst() throws {
        let expansions = try RoutePattern.parse("/search(/:query)(/page/:n)").map { $0.segments.count }
        #expect(expansions == [4, 3, 2, 1])
        let nested = try RoutePattern.parse("/a(/b(/c))").map(\.segments)
        #expect(nested == [[.literal("a"), .literal("b"), .literal("c")], [.literal("a"), .literal("b")], [.literal("a")]])
    }

    @Test("Longest counts segments, not characters; among equal counts an earlier group comes first")
    func longestCountsSegments() throws {
        let names = try RoutePattern.parse("/p(/:a)(/:much_longer_name)").map { pattern in
            pattern.segments.map { segment in
                if case .parameter(let name, _) = segment { name } else { "=" }
            }
        }
        #expect(names == [["=", "a", "much_longer_name"], ["=", "a"], ["=", "much_longer_name"], ["="]])
    }

    @Test("JLRoutes' groups, ending with '/' at the start of a segment, expand like groups starting with '/'")
    func groupsEndingWithSlash() throws {
        let jlroutes = try RoutePattern.parse("/(rest/)(app/):object/:id").map(\.segments)
        let object = PatternSegment.parameter(name: "object", constraint: nil)
        let id = PatternSegment.parameter(name: "id", constraint: nil)
        #expect(
            jlroutes == [
                [.literal("rest"), .literal("app"), object, id], [.literal("rest"), object, id], [.literal("app"), object, id],
                [object, id],
            ])
        #expect(try RoutePattern.parse("/x(/rest)(/app)/:object/:id").map { Array($0.segments.dropFirst()) } == jlroutes)
        #expect(try RoutePattern.parse("/a/(b/(c/))d").map(\.segments.count) == [4, 3, 2])
    }

    @Test func staticSegmentsAreDecoded() throws {
        let pattern = try #require(try RoutePattern.parse("/caf%C3%A9/a%2Fb").first)
        #expect(pattern.segments == [.literal("café"), .literal("a/b")])
        // Escaped, `?` and `#` are plain characters of a segment; in a regex they keep their meaning.
        let escaped = try #require(try RoutePattern.parse("/a%3Fb/c%23d/:n<[0-9]+?>").first)
        #expect(escaped.segments.prefix(2) == [.literal("a?b"), .literal("c#d")])
    }

    @Test(arguments: [
        ("", "must not be empty", 0),
        ("product/:id", "starts with '/'", 0),
        ("/a/(/b", "never closed", 3),
        ("/a/b)", "unbalanced ')'", 4),
        ("/a(b)", "starts with '/'", 2),
        ("/(b)", "or starts a segment and ends with '/'", 1),
        ("/a/(b/)c(d/)", "starts with '/'", 8),
        ("/a(/b)c", "must start with '/'", 6),
        ("/files/*/more", "must be the last segment", 7),
        ("/files/*rest/:x", "must be the last segment", 7),
        ("/a/:", "needs a name", 3),
        ("/a/:<int>", "needs a name", 3),
        ("/a/:id/:id", "used twice", 7),
        ("/a/:id(/b/:id)", "used twice", 10),
        ("/a/:id<>", "empty constraint", 6),
        ("/a/:id<int", "no matching '>'", 6),
        ("/a/:id<[0-9>", "no matching '>'", 6),
        ("/a/:id<(>", "no matching '>'", 6),
        ("/a/:id<a(b>", "no matching '>'", 6),
        ("/a/:id<a)b>", "invalid regex", 7),
        ("/a/:id.json", "whole segment", 6),
        ("/a/*x.y", "whole segment", 5),
        ("/a/%zz", "percent-escape", 3),
        ("https:///x", "needs a host", 8),
        ("1app://x", "invalid character", 0),
        ("https://shop.example.com:84x3/p", "invalid port '84x3'", 25),
        ("https://shop.example.com:65536/p", "invalid port '65536'", 25),
        ("https://[::1]:99999999999999999999/p", "invalid port", 14),
        ("/a?b=1", "starts a URL's query", 2),
        ("/user#/view/:id", "starts a URL's fragment", 5),
        ("shopapp://item/x?y", "write %3F", 16),
    ])
    func invalidPatterns(text: String, message: String, position: Int) {
        do {
            let parsed = try RoutePattern.parse(text)
            Issue.record("'\(text)' parsed as \(parsed)")
        } catch {
            #expect(error.message.contains(message), "\(text): \(error.message)")
            #expect(error.position == position, "\(text): \(error)")
            #expect(error.pattern == text)
        }
    }

    @Test func tooManyOptionalGroups() {
        let text = "/a" + String(repeating: "(/x)", count: 9)
        #expect(throws: PatternError.self) { try RoutePattern.parse(text) }
    }

    /// The byte-level path for plain patterns gives exactly what the full parser gives, and
    /// leaves everything else (and every error) to it.
    @Test(arguments: [
        "/", "//", "/product/:id", "/v1/resource12/:id/sub3", "/a//b/", "/a:b/c", "/x/:a-b_c9/:d",
        "/~user/file.name/!$&'+,;=@", "/a/:x/:y/z",
    ])
    func plainPathMatchesTheFullParser(_ text: String) throws {
        let plain = try #require(PatternParser.parsePlainPath(text))
        #expect([plain] == (try PatternParser(text).parse()))
    }

    @Test(arguments: [
        "", "product/:id", "/a/:", "/a/:id/:id", "/a/:id<int>", "/a(/b)", "/a/*rest", "/a%20b", "/a/:x.y",
        "shopapp://product/:id", "/caf\u{e9}", "/a b",
    ])
    func otherPatternsGoToTheFullParser(_ text: String) {
        #expect(PatternParser.parsePlainPath(text) == nil)
    }
}
