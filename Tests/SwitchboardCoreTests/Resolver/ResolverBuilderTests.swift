import Testing

@testable import SwitchboardCore

/// `ResolverBuilder` collects every problem (routes, rules, fallback) before refusing to build.
struct ResolverBuilderTests {
    typealias Issue = ResolverBuilder.Issue

    static let policy = AppLinkPolicy(schemes: ["myapp"], domains: ["shop.example.com"])

    static func route(_ id: String, _ patterns: String...) -> Route {
        Route(id: id, module: "test", patterns: patterns, target: .object([("page", .string(id))]))
    }

    static func buildIssues(_ builder: ResolverBuilder) -> [Issue] {
        do {
            _ = try builder.build()
            return []
        } catch {
            return error.issues
        }
    }

    @Test func everyIssueIsCollected() {
        var builder = ResolverBuilder(policy: Self.policy, fallback: "https://m.example.com/?from=$nope")
        builder.add(Self.route("good", "/product/:id<int>"))
        builder.add(Self.route("bad.pattern", "/a/:"))
        builder.add(Self.route("also.good", "/cart"))
        builder.add(Route(id: "no.pattern", module: "test", patterns: []))
        builder.add(rules: [
            RewriteRule(id: "fine", match: "^myapp://old/(.*)", target: "myapp://new/$1"),
            RewriteRule(id: "bad.rule", match: "^myapp://(unclosed", target: "myapp://x"),
        ])
        #expect(builder.issues.map(\.subject) == [.route(id: "bad.pattern"), .route(id: "no.pattern")])

        let issues = Self.buildIssues(builder)
        #expect(
            issues.map(\.subject) == [
                .route(id: "bad.pattern"), .route(id: "no.pattern"), .rule(index: 1, id: "bad.rule"), .fallback,
            ])
        #expect(issues.allSatisfy { !$0.message.isEmpty })
        #expect(issues[2].description.hasPrefix("rule #1 'bad.rule': "))
        #expect(issues[3].description.hasPrefix("fallback: "))
        #expect(issues[3].message.contains("nope"))
        let error = ResolverBuildError(issues: issues)
        #expect(error.description.split(separator: "\n").count == 4)
    }

    @Test func everyBadRuleIsReportedWithItsIndex() {
        var builder = ResolverBuilder(policy: Self.policy)
        builder.add(rules: [
            RewriteRule(id: "empty", match: "", target: "myapp://x"),
            RewriteRule(id: "ok", match: "a", target: "myapp://a"),
            RewriteRule(id: "group", match: "^(a)", target: "myapp://$2"),
            RewriteRule(id: "ok", match: "b", target: "myapp://b"),
        ])
        let issues = Self.buildIssues(builder)
        #expect(
            issues.map(\.subject) == [
                .rule(index: 0, id: "empty"), .rule(index: 2, id: "group"), .rule(index: 3, id: "ok"),
            ])
    }

    @Test func fallbackCannotUseGroups() {
        let builder = ResolverBuilder(policy: Self.policy, fallback: "https://m.example.com/$1")
        let issues = Self.buildIssues(builder)
        #expect(issues.map(\.subject) == [.fallback])
        #expect(issues.first?.message.contains("a fallback has none") == true, "\(issues)")
        #expect(Self.buildIssues(ResolverBuilder(policy: Self.policy, fallback: "https://m.example.com/$0$url")).isEmpty)
    }

    /// An empty fallback would answer every unmatched link with `"fallback": ""`.
    @Test func anEmptyFallbackIsRefused() {
        let issues = Self.buildIssues(ResolverBuilder(policy: Self.policy, fallback: ""))
        #expect(issues.map(\.subject) == [.fallback])
        #expect(issues.first?.message.contains("empty") == true)
    }

    @Test(arguments: [false, true])
    func conflictNamesBothIDs(reversed: Bool) throws {
        var builder = ResolverBuilder(policy: Self.policy)
        let routes = [Self.route("search.a", "/s/:a"), Self.route("search.b", "/x", "/s/:b")]
        for route in reversed ? routes.reversed() : routes { builder.add(route) }
        let issue = try #require(builder.issues.first)
        #expect(builder.issues.count == 1)
        let (refused, kept) = reversed ? ("search.a", "search.b") : ("search.b", "search.a")
        #expect(issue.subject == .route(id: refused))
        #expect(issue.message.contains("'\(kept)'"))
        #expect(issue.description.contains(refused) && issue.description.contains(kept))
    }

    @Test func duplicateIDIsAnIssue() {
        var builder = ResolverBuilder(policy: Self.policy)
        builder.add(Self.route("dup", "/a"))
        builder.add(Self.route("dup", "/b"))
        #expect(builder.issues.map(\.subject) == [.route(id: "dup")])
        #expect(builder.issues.first?.message.contains("twice") == true)
    }

    @Test func maximumRoutes() throws {
        var builder = ResolverBuilder(policy: Self.policy, maximumRoutes: 2)
        builder.add(Self.route("one", "/1"))
        builder.add(Self.route("two", "/2"))
        builder.add(Self.route("three", "/3"))
        builder.add(Self.route("four", "/4"))
        #expect(builder.issues.map(\.subject) == [.route(id: "three"), .route(id: "four")])
        #expect(builder.issues.first?.message.contains("max_routes") == true)

        var atLimit = ResolverBuilder(policy: Self.policy, maximumRoutes: 2)
        atLimit.add(Self.route("one", "/1"))
        atLimit.add(Self.route("two", "/2"))
        let resolver = try atLimit.build()
        #expect(resolver.router.routes.count == 2)
    }

    @Test func buildsWithRulesInOrder() throws {
        var builder = ResolverBuilder(policy: Self.policy, fallback: "https://m.example.com/?from=$$url")
        builder.add(Self.route("product", "/product/:id<int>"))
        builder.add(rules: [RewriteRule(id: "admin", match: "^myapp://a/", target: "myapp://product/1")])
        builder.add(rules: [RewriteRule(id: "config", match: "^myapp://b/", target: "myapp://product/2")])
        let resolver = try builder.build()
        #expect(resolver.rewriter.rules.map(\.id) == ["admin", "config"])
        #expect(try resolver.resolve("myapp://a/x").ruleIDs == ["admin"])
        #expect(try resolver.resolve("myapp://nothing").fallback == "https://m.example.com/?from=myapp%3A%2F%2Fnothing")
    }

    /// The example in ``Resolver``'s documentation, as written there.
    @Test func theDocumentedExampleRuns() throws {
        var builder = ResolverBuilder(policy: AppLinkPolicy(schemes: ["myapp"], domains: ["shop.example.com"]))
        builder.add(Route(id: "product.detail", module: "product", patterns: ["/product/:id<int>"]))
        builder.add(rules: [RewriteRule(id: "web", match: #"^https://shop\.example\.com/p/(\d+)"#, target: "myapp://product/$1")])
        let resolver = try builder.build()
        let resolution = try resolver.resolve("https://shop.example.com/p/42")
        #expect(resolution.match?.route.id == "product.detail")
        #expect(resolution.ruleIDs == ["web"])
    }
}
