import SwitchboardTestSupport
import Testing

@testable import SwitchboardCore

@Suite struct RewriteEngineTests {
    private func url(_ text: String, host: String?, path: String, query: String? = nil) -> ParsedURL {
        let scheme = String(text.prefix { $0 != ":" })
        return ParsedURL(uncheckedString: text, scheme: scheme, host: host, path: path, query: query)
    }

    private func validationError(_ rules: [RewriteRule]) -> RuleValidationError? {
        do {
            _ = try RewriteEngine(rules: rules)
            return nil
        } catch {
            return error
        }
    }

    @Test func emptyEngineReturnsTheInput() {
        let input = url("myapp://a/b", host: "a", path: "/b")
        let outcome = RewriteEngine().rewrite(input)
        #expect(outcome.url == input)
        #expect(!outcome.didRewrite && outcome.steps.isEmpty && outcome.errors.isEmpty && outcome.limitHits.isEmpty)
    }

    /// Needs `ParsedURL.parse` (every fired rule re-parses its result).
    @Test func stepsRecordEveryIntermediateURL() throws {
        let engine = try RewriteEngine(rules: [
            RewriteRule(id: "https", match: "^http://(.*)", target: "https://$1", last: false),
            RewriteRule(id: "skip", match: "^ftp:", target: "app://ftp"),
            RewriteRule(id: "app", match: "^https://shop\\.com/(.*)", target: "app://$1"),
        ])
        let outcome = engine.rewrite(url("http://shop.com/cart", host: "shop.com", path: "/cart"))
        #expect(outcome.steps.map(\.ruleIndex) == [0, 2])
        #expect(outcome.steps.map(\.ruleID) == ["https", "app"])
        #expect(outcome.steps.map(\.url.string) == ["https://shop.com/cart", "app://cart"])
        #expect(outcome.steps.last?.url.host == "cart")
        #expect(outcome.url == outcome.steps.last?.url)
    }

    @Test func unparsableResultIsReportedWithTheText() throws {
        let engine = try RewriteEngine(rules: [RewriteRule(id: "rel", match: "^myapp://a(/.*)", target: "$1 x")])
        let input = url("myapp://a/b", host: "a", path: "/b")
        let outcome = engine.rewrite(input)
        #expect(outcome.url == input)
        #expect(!outcome.didRewrite)
        let error = try #require(outcome.errors.first)
        #expect(outcome.errors.count == 1)
        #expect(error.ruleIndex == 0 && error.ruleID == "rel")
        #expect(error.kind == .invalidResult)
        #expect(error.rewrittenText == "/b x")
        #expect(error.message.contains("\"/b x\""))
        #expect(error.description.hasPrefix("rule #0 (id \"rel\"): "))
    }

    /// Chained rules that double the URL each would make one request take gigabytes: a
    /// result over the bound is an error, and the chain goes on from the URL before it.
    @Test func aResultOverTheBoundIsAnErrorAndTheChainGoesOn() throws {
        let doubling = (0..<20).map { RewriteRule(id: "d\($0)", match: "^(myapp://a/)(.*)$", target: "$1$2$2", last: false) }
        let engine = try RewriteEngine(rules: doubling)
        let input = try ParsedURL.parse("myapp://a/xxxxxxxxxx")
        let outcome = engine.rewrite(input)
        let longest = try #require(outcome.steps.last?.url.string.utf8.count)
        #expect(longest <= RewriteEngine.maximumRewrittenBytes)
        #expect(longest > RewriteEngine.maximumRewrittenBytes / 2)
        #expect(outcome.steps.count == 12)
        #expect(outcome.errors.count == 8)
        let error = try #require(outcome.errors.first)
        #expect(error.kind == .invalidResult && error.rewrittenText == nil)
        #expect(error.message.contains("more than the 65536 a rule may make"), "\(error.message)")
        let (explained, traces) = engine.explain(input)
        #expect(explained == outcome.url)
        #expect(traces.filter { $0.result == .error }.count == 8)
    }

    @Test func catastrophicRuleHitsTheLimitQuickly() throws {
        let engine = try RewriteEngine(rules: [RewriteRule(id: "evil", match: "(a+)+$", target: "app://x")])
        let text = "myapp://x/" + String(repeating: "a", count: 4_000) + "!"
        let input = ParsedURL(uncheckedString: text, scheme: "myapp", host: "x", path: String(text.dropFirst(9)))
        let clock = ContinuousClock()
        var outcome: RewriteOutcome?
        let elapsed = clock.measure { outcome = engine.rewrite(input) }
        #expect(outcome?.limitHits == [0])
        #expect(outcome?.url == input)
        #expect(elapsed < .milliseconds(500))
    }

    @Test func limitsComeFromTheOptions() throws {
        let rules = [RewriteRule(id: "slow", match: "(a|aa)+$", target: "app://x")]
        let text = "myapp://x/" + String(repeating: "a", count: 20) + "!"
        let input = ParsedURL(uncheckedString: text, scheme: "myapp", host: "x", path: String(text.dropFirst(9)))
        let strict = try RewriteEngine(rules: rules, options: RegexOptions(matchLimit: 100), usesPrefilter: true)
        #expect(strict.rewrite(input).limitHits == [0])
        let generous = try RewriteEngine(
            rules: rules, options: RegexOptions(matchLimit: 10_000_000, depthLimit: 100_000), usesPrefilter: true)
        #expect(generous.rewrite(input).limitHits.isEmpty)
    }

    @Test func validationReportsEveryIssueInOrder() throws {
        let error = try #require(
            validationError([
                RewriteRule(id: "a", match: "x(", target: "app://$2"),
                RewriteRule(id: "b", match: "(x)", target: "app://$2"),
                RewriteRule(id: "a", match: "", target: ""),
            ]))
        #expect(error.issues.map(\.ruleIndex) == [0, 1, 2, 2, 2])
        #expect(error.issues.map(\.code) == [.invalidRegex, .invalidTemplate, .duplicateID, .emptyMatch, .invalidTemplate])
        #expect(error.issues.map(\.field) == [.match, .target, .id, .match, .target])
        // The template of a rule whose regex is invalid is still checked for syntax, not groups.
        #expect(!error.issues.contains { $0.ruleIndex == 0 && $0.field == .target })
        #expect(error.issues[0].offset == 2)
        #expect(error.issues[0].message.hasPrefix("invalid regex: "))
        #expect(error.issues[1].offset == 6)
        #expect(error.description.hasPrefix("5 problems in rewrite rules:\nrule #0 (id \"a\"): match: invalid regex: "))
        #expect(error.issues[2].message.contains("rule #0"))
        #expect(
            error.issues.map(\.code.description) == [
                "invalid_regex", "invalid_template", "duplicate_id", "empty_match", "invalid_template",
            ])
    }

    @Test func singleIssueDescription() throws {
        let error = try #require(validationError([RewriteRule(id: "p", match: "x", target: "app://$foo")]))
        #expect(error.description.hasPrefix("invalid rewrite rule: rule #0 (id \"p\"): target: unknown variable `$foo`"))
        #expect(error.description.hasSuffix("(at offset 6)"))
    }

    @Test func sharedAcrossTasks() async throws {
        let engine = try RewriteEngine(rules: [RewriteRule(id: "n", match: "/(\\d+)$", target: "$path x")])
        let results = await withTaskGroup(of: Int.self) { group in
            for index in 0..<32 {
                group.addTask {
                    let input = ParsedURL(uncheckedString: "myapp://a/\(index)", scheme: "myapp", host: "a", path: "/\(index)")
                    return engine.rewrite(input).errors.first?.rewrittenText == "/\(index) x" ? 1 : 0
                }
            }
            return await group.reduce(0, +)
        }
        #expect(results == 32)
        #expect(engine.rules.count == 1)
    }
}

/// An engine built from a running one takes its unchanged rules as they are compiled.
struct RewriteEngineReuseTests {
    static let rules = [
        RewriteRule(id: "a", match: "^app://old/(\\d+)$", target: "app://new/$1"),
        RewriteRule(id: "b", match: "^https://web\\.example/p/(\\w+)", target: "app://p/$1"),
    ]

    @Test("unchanged rules keep their compiled regex; a changed or new one is compiled; answers are the same")
    func unchangedRulesAreReused() throws {
        let previous = try RewriteEngine(rules: Self.rules)
        let changed = RewriteRule(id: "b", match: "^https://web\\.example/q/(\\w+)", target: "app://q/$1")
        let added = RewriteRule(id: "c", match: "sale", target: "app://sale")
        let rules = [Self.rules[0], changed, added]
        let reused = try RewriteEngine(rules: rules, reusing: previous)
        #expect(reused.compiled[0].regex === previous.compiled[0].regex)
        #expect(reused.compiled[1].regex !== previous.compiled[1].regex)
        let fresh = try RewriteEngine(rules: rules)
        for text in ["app://old/42", "https://web.example/q/shoes", "https://web.example/p/shoes", "app://sale", "app://none"] {
            let url = try ParsedURL.parse(text)
            #expect(reused.rewrite(url).url.string == fresh.rewrite(url).url.string, "\(text)")
            #expect(reused.rewrite(url).firedRuleIDs == fresh.rewrite(url).firedRuleIDs, "\(text)")
        }
    }

    /// One rule list edited as admin changes edit it, ten times in a row, each engine built
    /// from the one before: inserts, deletes, replaces and moves anywhere in the list,
    /// including moves that shift every rule between two places.
    @Test(
        "every rule the previous engine has is reused whatever the edits; answers equal running every regex",
        arguments: 0..<24)
    func everyEditReusesUnchangedRules(seed: Int) throws {
        let base = (0..<60).map { RewriteRule(id: "r\($0)", match: "^app://old/\($0)/(\\d+)$", target: "app://new/\($0)/$1") }
        var generator = SplitMix(seed: UInt64(seed))
        var previous = try RewriteEngine(rules: base)
        var rules = base
        for edit in 0..<10 {
            let position = Int(generator.next() % UInt64(rules.count))
            switch generator.next() % 4 {
            case 0: rules.insert(RewriteRule(id: "new\(edit)", match: "^app://fresh/\(edit)/(\\d+)$", target: "app://f/$1"), at: position)
            case 1: rules.remove(at: position)
            case 2: rules[position] = RewriteRule(id: rules[position].id, match: "^app://changed/\(edit)$", target: "app://c")
            default: rules.insert(rules.remove(at: position), at: Int(generator.next() % UInt64(rules.count)))
            }
            let reused = try RewriteEngine(rules: rules, options: .default, usesPrefilter: true, reusing: previous)
            for (index, rule) in rules.enumerated() {
                guard let old = previous.rules.firstIndex(of: rule) else { continue }
                #expect(reused.compiled[index].regex === previous.compiled[old].regex, "rule \(rule.id) at \(index)")
            }
            previous = reused
        }
        let reference = try RewriteEngine(rules: rules, options: .default, usesPrefilter: false)
        let texts =
            (0..<60).map { "app://old/\($0)/7" } + (0..<10).map { "app://fresh/\($0)/8" }
            + (0..<10).map { "app://changed/\($0)" }
        for text in texts {
            let url = try ParsedURL.parse(text)
            #expect(previous.rewrite(url) == reference.rewrite(url), "\(text)")
        }
    }

    @Test("reusing still validates the whole batch: a repeated id or a bad new rule is refused")
    func reuseStillValidates() throws {
        let previous = try RewriteEngine(rules: Self.rules)
        #expect(throws: RuleValidationError.self) { try RewriteEngine(rules: Self.rules + [Self.rules[0]], reusing: previous) }
        let broken = RewriteRule(id: "x", match: "(", target: "app://x")
        #expect(throws: RuleValidationError.self) { try RewriteEngine(rules: Self.rules + [broken], reusing: previous) }
    }
}
