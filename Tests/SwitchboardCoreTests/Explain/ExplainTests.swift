import Testing

@testable import SwitchboardCore

/// `explain`: the trace agrees with the real resolution, and says why each rule did or did not
/// fire and how the router walked (branches, refused constraints, backtracks).
struct ExplainTests {
    @Test("the trace ends where the resolution does, on every resolver vector", arguments: ResolverVectorTests.groups)
    func traceAgreesWithResolution(_ group: ResolverVectorTests.Group) throws {
        let resolver = try ResolverVectorTests.resolver(for: group)
        for testCase in group.cases where testCase.error == nil {
            let (resolution, trace) = try resolver.explain(testCase.url)
            #expect(trace.rules.filter { $0.result == .fired }.map(\.id) == resolution.ruleIDs, "\(testCase.url)")
            #expect(trace.router.routeID == resolution.match?.route.id, "\(testCase.url)")
            #expect(trace.router.pattern == resolution.match?.pattern, "\(testCase.url)")
            #expect(trace.router.url == (resolution.rewrittenURL ?? testCase.url), "\(testCase.url)")
        }
    }

    static func resolver(routes: [(String, String)], rules: [RewriteRule] = []) throws -> Resolver {
        var builder = ResolverBuilder(policy: AppLinkPolicy(schemes: ["app"], domains: ["shop.example"]))
        for (id, pattern) in routes { builder.add(Route(id: id, module: "m", patterns: [pattern])) }
        builder.add(rules: rules)
        return try builder.build()
    }

    @Test func theWalkShowsTheBacktrackAndTheBranchThatWon() throws {
        let resolver = try Self.resolver(routes: [("ab", "/a/b"), ("xc", "/:x/c")])
        let (resolution, trace) = try resolver.explain("app://a/c")
        #expect(resolution.match?.route.id == "xc")
        let steps = trace.router.steps.map { "\($0.depth) \($0.branch) \($0.outcome)" }
        #expect(
            steps == [
                "0 static 'a' entered", "1 static refused: no static segment 'c' here", "0 static 'a' backtracked",
                "0 :param entered", "1 static 'c' entered", "2 end matched",
            ], "\(steps)")
        #expect(trace.router.segments == ["a", "c"])
    }

    @Test("a constraint regex stopped by the PCRE2 limit is refused, counted, and said so in the trace")
    func constraintLimitIsCountedAndExplained() throws {
        let resolver = try Self.resolver(routes: [("slow", "/c/:x<(a+)+>"), ("any", "/c/:y")])
        let url = "app://c/" + String(repeating: "a", count: 5_000) + "!"
        let resolution = try resolver.resolve(url)
        #expect(resolution.match?.route.id == "any")
        #expect(resolution.constraintLimitHits == 1)
        let (explained, trace) = try resolver.explain(url)
        #expect(explained.match?.route.id == "any")
        #expect(trace.router.steps.contains { $0.outcome.contains("PCRE2 match limit") }, "\(trace.router.steps)")
        #expect(try resolver.resolve("app://c/aaa").constraintLimitHits == 0)
    }

    @Test func aRefusedConstraintIsNamed() throws {
        let resolver = try Self.resolver(routes: [("byID", "/p/:id<int>"), ("bySlug", "/p/:slug<[a-z]+>")])
        let (_, trace) = try resolver.explain("app://p/42x")
        #expect(trace.router.routeID == nil)
        let refusals = trace.router.steps.filter { $0.outcome.hasPrefix("refused") }.map(\.branch)
        #expect(refusals == ["int", "regex '[a-z]+'"], "\(trace.router.steps)")
    }

    @Test func aPatternForAnotherSchemeSaysWhatItNeeds() throws {
        let resolver = try Self.resolver(routes: [("scan", "other://scan")])
        let (_, trace) = try resolver.explain("app://scan")
        #expect(trace.router.steps.first { $0.branch == "end" }?.outcome == "patterns end here but need scheme other")
        #expect(trace.router.steps.last?.outcome == "backtracked")
    }

    @Test func eachRuleOutcomeIsReported() throws {
        let rules = [
            RewriteRule(id: "other-host", match: #"^https://elsewhere\.example/"#, target: "app://a/b"),
            RewriteRule(id: "android-only", match: "^https://", target: "app://a/b", when: RuleCondition(platform: ["android"])),
            RewriteRule(id: "no-match", match: "^https://[a-z]+\\.example/item/[a-z]", target: "app://a/b"),
            RewriteRule(id: "broken-result", match: "^https://shop\\.example/(.*)", target: "::$1", last: false),
            RewriteRule(id: "renamed", match: "^https://shop\\.example/item/([0-9]+)", target: "app://a/$1", last: false),
            RewriteRule(id: "after", match: "^app://a/([0-9]+)$", target: "app://a/b"),
            RewriteRule(id: "never-tried", match: ".", target: "app://x"),
        ]
        let resolver = try Self.resolver(routes: [("ab", "/a/b")], rules: rules)
        let context = RequestContext(platform: "ios")
        let (resolution, trace) = try resolver.explain("https://shop.example/item/7", context: context)
        #expect(resolution.ruleIDs == ["renamed", "after"])
        #expect(trace.rules.map(\.result) == [.skippedByPrefilter, .conditionFalse, .noMatch, .error, .fired, .fired])
        #expect(trace.rules[0].reason.contains("elsewhere.example"))
        #expect(trace.rules[1].reason.contains("ios"))
        #expect(trace.rules[3].reason.contains("invalid"))
        #expect(trace.rules[4].output == "app://a/7" && trace.rules[5].input == "app://a/7")
        #expect(trace.router.routeID == "ab")
    }

    @Test func theTraceIsJSONWithRulesAndRouter() throws {
        let resolver = try Self.resolver(routes: [("ab", "/a/b")])
        let (_, trace) = try resolver.explain("app://a/b")
        let text = trace.json.jsonText
        #expect(text.hasPrefix(#"{"rules":[],"router":{"url":"app://a/b","isAppLink":true,"segments":["a","b"],"steps":["#))
        #expect(text.hasSuffix(#""pattern":"/a/b","routeId":"ab"}}"#))
    }
}
