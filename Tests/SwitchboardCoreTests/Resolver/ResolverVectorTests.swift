import Testing

@testable import SwitchboardCore

/// The resolver end to end against `Fixtures/resolver-vectors.json`: params precedence and
/// query decoding, app-link rules, rewrites before routing, fallbacks, `invalid_url`, and the
/// exact JSON of design.md §5 (compared byte for byte, so key order and escaping are checked).
struct ResolverVectorTests {
    struct File: Decodable {
        var groups: [Group]
    }

    struct Group: Decodable, Sendable, CustomTestStringConvertible {
        struct Settings: Decodable, Sendable {
            var schemes: [String]
            var domains: [String]
            var fallback: String?
        }

        struct RouteSpec: Decodable, Sendable {
            var id: String
            var module: String
            var patterns: [String]
            /// `[[key, value], …]`: JSON objects decoded by `JSONDecoder` lose their key order.
            var target: [[JSONValue]]
            var params: [String: String]?

            func route() throws -> Route {
                var members: [(key: String, value: JSONValue)] = []
                for pair in target {
                    let key = try #require(pair.count == 2 ? pair[0].stringValue : nil, "bad target pair in \(id)")
                    members.append((key, pair[1]))
                }
                return RouteDefinition(id: id, patterns: patterns, target: .object(members), params: params ?? [:])
                    .route(module: module)
            }
        }

        struct Case: Decodable, Sendable {
            var url: String
            /// The exact compact JSON of the resolution.
            var expected: String?
            /// `invalid_url` when the URL cannot be resolved at all.
            var error: String?
        }

        var name: String
        var settings: Settings
        var routes: [RouteSpec]
        var rules: [RewriteRule]
        var cases: [Case]

        var testDescription: String { name }
    }

    static let groups: [Group] = (try? Fixtures.load("resolver-vectors", as: File.self).groups) ?? []

    static func resolver(for group: Group) throws -> Resolver {
        var builder = ResolverBuilder(
            policy: AppLinkPolicy(schemes: group.settings.schemes, domains: group.settings.domains),
            fallback: group.settings.fallback)
        for spec in group.routes { builder.add(try spec.route()) }
        builder.add(rules: group.rules)
        #expect(builder.issues.isEmpty, "\(builder.issues)")
        return try builder.build()
    }

    @Test func fixturesLoaded() {
        #expect(Self.groups.count >= 5)
        #expect(Self.groups.reduce(0) { $0 + $1.cases.count } >= 40)
        for group in Self.groups {
            for vector in group.cases {
                #expect((vector.expected == nil) != (vector.error == nil), "\(group.name): \(vector.url)")
            }
        }
    }

    @Test(arguments: groups)
    func vector(_ group: Group) throws {
        let resolver = try Self.resolver(for: group)
        for vector in group.cases {
            do {
                let resolution = try resolver.resolve(vector.url)
                guard let expected = vector.expected else {
                    Issue.record("\(vector.url): expected \(vector.error ?? "an error"), got \(resolution.json.jsonText)")
                    continue
                }
                let bytes = resolution.jsonBytes
                // String equality is canonical equivalence; the body must be these exact bytes.
                #expect(String(decoding: bytes, as: UTF8.self) == expected, "\(vector.url)")
                let sameBytes = bytes.elementsEqual(expected.utf8)
                #expect(sameBytes, "\(vector.url): not the same bytes")
                #expect(resolution.json.jsonText == expected, "\(vector.url)")
                #expect(resolution.matched == expected.hasPrefix(#"{"matched":true"#), "\(vector.url)")
                var writer = JSONWriter()
                let summary = try resolver.resolve(vector.url, appendingJSONTo: &writer)
                #expect(writer.bytes.elementsEqual(expected.utf8), "\(vector.url): the body differs")
                #expect(summary.matched == resolution.matched, "\(vector.url)")
            } catch {
                #expect(vector.error == error.code, "\(vector.url): unexpected \(error.code): \(error.message)")
                #expect(!error.message.isEmpty)
            }
        }
    }

    /// A rule whose result parses but whose path does not decode: `invalid_url`, and the
    /// message says it is the rewritten URL that is at fault.
    @Test func rewrittenURLThatDoesNotDecode() throws {
        var builder = ResolverBuilder(policy: AppLinkPolicy(schemes: ["myapp"], domains: []))
        builder.add(Route(id: "x", module: "m", patterns: ["/x/:v"]))
        builder.add(rules: [RewriteRule(id: "latin1", match: "^myapp://old/", target: "myapp://x/%FF")])
        let resolver = try builder.build()
        #expect {
            try resolver.resolve("myapp://old/page")
        } throws: { error in
            guard let error = error as? ResolveError else { return false }
            return error.code == "invalid_url" && error.message.hasPrefix("the rewritten URL myapp://x/%FF is invalid: ")
        }
        #expect {
            try resolver.resolve("myapp://x/%FF")
        } throws: { error in
            (error as? ResolveError)?.message.hasPrefix("invalid URL: ") == true
        }
    }

    /// The position in an `invalid_url` message is that of the bad escape in the URL given.
    @Test(arguments: [
        ("myapp://search/%C3%28", 15), ("myapp://search/ok/%FF?q=1", 18), ("myapp://us%C3er@%FF/x", 16),
        ("https://shop.example.com/é/%FF", 27), ("myapp://%FF", 8), ("mailto:x%FF", 7),
    ])
    func invalidPathPositionIsInTheURL(url: String, position: Int) throws {
        var builder = ResolverBuilder(policy: AppLinkPolicy(schemes: ["myapp"], domains: ["shop.example.com"]))
        builder.add(Route(id: "x", module: "m", patterns: ["/x"]))
        let resolver = try builder.build()
        #expect {
            try resolver.resolve(url)
        } throws: { error in
            (error as? ResolveError)?.message.hasSuffix("(at position \(position))") == true
        }
    }

    /// The resolution counts the rule that could not apply (for the metrics), and the rewrite
    /// engine names it.
    @Test func ruleErrorIsReportedInTheOutcome() throws {
        let group = try #require(Self.groups.first { $0.name == "rewrite rules before routing" })
        let resolver = try Self.resolver(for: group)
        let resolution = try resolver.resolve("myapp://broken/x")
        #expect(resolution.rewrittenURL == nil)
        #expect(resolution.ruleIDs.isEmpty)
        #expect(resolution.summary.ruleErrorCount == 1)
        let outcome = resolver.rewriter.rewrite(try ParsedURL.parse("myapp://broken/x"))
        #expect(outcome.errors.map(\.ruleID) == ["unparsable"])
        #expect(outcome.errors.first?.kind == .invalidResult)
        #expect(resolution.match?.route.id == "broken")
    }
}
