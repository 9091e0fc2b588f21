import SwitchboardTestSupport
import Testing

@testable import SwitchboardCore

/// Conditional rules (`when`) and route `minAppVersion`: parsing, validation with the rule
/// index, evaluation, the stable rollout bucket, and the prefilter staying correct.
struct ConditionTests {
    @Test("versions: missing parts are 0, pre-releases sort first")
    func versions() throws {
        let v = { (text: String) throws -> SemanticVersion in try #require(SemanticVersion(text)) }
        #expect(try v("5") == v("5.0.0"))
        #expect(try v("5.2") < v("5.10"))
        #expect(try v("5.2.0-beta") < v("5.2.0"))
        #expect(try v("6.0.0") > v("5.99.99"))
        for bad in ["", "5.x", "1.2.3.4", "-1", "v5", "5..1", "5.2.0-", " 5"] {
            #expect(SemanticVersion(bad) == nil, "\(bad)")
        }
        let range = try VersionRange(">=5.2.0 <6")
        #expect(try range.contains(v("5.2.0")))
        #expect(try range.contains(v("5.9.9")))
        #expect(try !range.contains(v("6.0.0")))
        #expect(try !range.contains(v("5.1.9")))
        #expect(try VersionRange("5.2").contains(v("5.2.0")))
        #expect(try VersionRange("<=5.2 >5.1").contains(v("5.2")))
        for bad in ["", "  ", ">=5.x", "~5.2", ">= 5.2", "5.2 || 6"] {
            #expect(throws: ConditionError.self, "\(bad)") { try VersionRange(bad) }
        }
    }

    @Test("pre-releases compare as SemVer 2.0.0 §11 says: numbers as numbers, below words, a prefix first")
    func prereleaseOrder() throws {
        let ordered = [
            "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1",
            "1.0.0-rc.2", "1.0.0-rc.10", "1.0.0",
        ]
        let versions = try ordered.map { try #require(SemanticVersion($0)) }
        for (earlier, later) in zip(versions, versions.dropFirst()) {
            #expect(earlier < later, "\(earlier) < \(later)")
            #expect(!(later < earlier), "\(later) < \(earlier)")
        }
        #expect(try VersionRange(">=5.2.0-rc.2").contains(#require(SemanticVersion("5.2.0-rc.10"))))
        // Written differently, equal in value: ordered by text, so that < agrees with ==.
        let one = try #require(SemanticVersion("1.0.0-rc.1"))
        let padded = try #require(SemanticVersion("1.0.0-rc.01"))
        #expect(one != padded && (padded < one) != (one < padded))
    }

    @Test(
        "a range no version satisfies is refused, naming the two bounds",
        arguments: [">=6 <5", ">5 <5", ">=5 <5", "=5 =6", ">5.0.0 <=5", "<5.0.0-beta >=5.0.0"])
    func emptyRange(text: String) {
        #expect {
            try VersionRange(text)
        } throws: { error in
            (error as? ConditionError)?.message.contains("holds for no version") == true
        }
    }

    @Test("a narrow range that some version satisfies is taken", arguments: [">=5 <=5", "=5 >=5", ">5.0.0 <5.0.1", ">=5.0.0-rc.1 <5.0.0"])
    func narrowRange(text: String) throws {
        _ = try VersionRange(text)
    }

    @Test("RFC 3339 instants, time zone required")
    func dates() {
        #expect(RFC3339.seconds("1970-01-01T00:00:00Z") == 0)
        #expect(RFC3339.seconds("2026-11-11T00:00:00+08:00") == 1_794_326_400)
        #expect(RFC3339.seconds("2024-02-29T23:59:59-05:30") == 1_709_270_999)
        #expect(RFC3339.seconds("1970-01-01t00:00:00.5z") == 0.5)
        for bad in [
            "2026-11-11", "2026-11-11T00:00:00", "2026-13-01T00:00:00Z", "2025-02-29T00:00:00Z",
            "2026-11-11T24:00:00Z", "2026-11-11T00:00:00+0800", "2026-11-11T00:00:00Zjunk", "tomorrow",
        ] {
            #expect(RFC3339.seconds(bad) == nil, "\(bad)")
        }
    }

    @Test("the rollout bucket is fmix64(FNV-1a 64) of device, 0x1F, rule id — stable, ~percent, independent per rule")
    func bucket() {
        #expect(CompiledCondition.bucket(deviceID: "device-1", ruleID: "new-pdp") == 9148)
        let condition = CompiledCondition(basisPoints: 1_000)
        let devices = (0..<10_000).map { "device-\($0)" }
        let inA = Set(devices.filter { condition.holds(RequestContext(deviceID: $0), ruleID: "a") })
        let inB = Set(devices.filter { condition.holds(RequestContext(deviceID: $0), ruleID: "b") })
        #expect((900...1_100).contains(inA.count))
        #expect((900...1_100).contains(inB.count))
        // Independent buckets: about 10 % of A is in B, not all of it.
        #expect((50...160).contains(inA.intersection(inB).count))
        #expect(
            devices.prefix(100).allSatisfy {
                condition.holds(RequestContext(deviceID: $0), ruleID: "a") == inA.contains($0)
            })
        #expect(!condition.holds(RequestContext(), ruleID: "a"))
        #expect(CompiledCondition(basisPoints: 10_000).holds(RequestContext(), ruleID: "a"))
        #expect(!CompiledCondition(basisPoints: 0).holds(RequestContext(deviceID: "d"), ruleID: "a"))
    }

    static let rules = [
        RewriteRule(id: "ios-only", match: "^myapp://a", target: "myapp://ios", when: RuleCondition(platform: ["ios"])),
        RewriteRule(id: "new-app", match: "^myapp://a", target: "myapp://new", when: RuleCondition(appVersion: ">=5.2.0 <6")),
        RewriteRule(
            id: "sale", match: "^myapp://sale", target: "myapp://venue",
            when: RuleCondition(activeFrom: "2026-11-11T00:00:00+08:00", activeUntil: "2026-11-12T00:00:00+08:00")),
        RewriteRule(id: "rollout", match: "^myapp://p/", target: "myapp://p2/", when: RuleCondition(percent: 50)),
        RewriteRule(id: "plain", match: "^myapp://a", target: "myapp://plain"),
    ]

    @Test("a condition holds exactly when each of its explained verdicts holds")
    func verdictsAgreeWithHolds() throws {
        let condition = try RuleCondition(
            platform: ["ios", "android"], appVersion: ">=5.2.0 <6", activeFrom: "2026-11-11T00:00:00+08:00",
            activeUntil: "2026-11-12T00:00:00+08:00", percent: 50
        ).compiled()
        var random = SplitMix(seed: 7)
        let start = RFC3339.seconds("2026-11-10T12:00:00Z") ?? 0
        for _ in 0..<2_000 {
            let context = RequestContext(
                platform: ["ios", "android", "web", nil][Int(random.next() % 4)],
                appVersion: ["5.1.9", "5.2.0", "5.9.1", "6.0.0", nil][Int(random.next() % 5)],
                deviceID: random.next() % 5 == 0 ? nil : "device-\(random.next() % 1000)",
                now: random.next() % 6 == 0 ? nil : start + Double(random.next() % (3 * 86_400)))
            let verdicts = condition.verdicts(context, ruleID: "r")
            #expect(condition.holds(context, ruleID: "r") == verdicts.allSatisfy(\.held), "\(context)")
            #expect(verdicts.count == 4)
        }
    }

    @Test("instants print back as the RFC 3339 UTC text they parse from")
    func rfc3339RoundTrip() {
        for text in [
            "1970-01-01T00:00:00Z", "2026-11-10T17:00:00Z", "2000-02-29T23:59:59Z", "1969-12-31T23:59:59Z", "2400-12-31T00:00:01Z",
        ] {
            #expect(RFC3339.seconds(text).map(RFC3339.string) == text)
        }
        #expect(RFC3339.seconds("2026-11-11T01:00:00+08:00").map(RFC3339.string) == "2026-11-10T17:00:00Z")
    }

    @Test("rules apply only when their conditions hold")
    func evaluation() throws {
        let engine = try RewriteEngine(rules: Self.rules)
        func run(_ url: String, _ context: RequestContext) throws -> String {
            engine.rewrite(try ParsedURL.parse(url), context: context).url.string
        }
        #expect(try run("myapp://a", RequestContext(platform: "IOS")) == "myapp://ios")
        #expect(try run("myapp://a", RequestContext(platform: "android", appVersion: "5.3")) == "myapp://new")
        #expect(try run("myapp://a", RequestContext(platform: "android", appVersion: "6.0")) == "myapp://plain")
        #expect(try run("myapp://a", RequestContext(appVersion: "not-a-version")) == "myapp://plain")
        #expect(try run("myapp://a", RequestContext()) == "myapp://plain")
        let start = 1_794_326_400.0
        #expect(try run("myapp://sale", RequestContext(now: start - 1)) == "myapp://sale")
        #expect(try run("myapp://sale", RequestContext(now: start)) == "myapp://venue")
        #expect(try run("myapp://sale", RequestContext(now: start + 86_399)) == "myapp://venue")
        #expect(try run("myapp://sale", RequestContext(now: start + 86_400)) == "myapp://sale")
        #expect(try run("myapp://sale", RequestContext()) == "myapp://sale")
    }

    @Test("the prefilter gives the same answers as running every regex, with conditions")
    func prefilterEquivalence() throws {
        let fast = try RewriteEngine(rules: Self.rules)
        let reference = try RewriteEngine(rules: Self.rules, options: .default, usesPrefilter: false)
        let contexts = [
            RequestContext(), RequestContext(platform: "ios"), RequestContext(appVersion: "5.2.1", now: 1_794_326_500),
            RequestContext(deviceID: "d1"), RequestContext(deviceID: "d2"), RequestContext(deviceID: "d3", now: 0),
        ]
        for url in ["myapp://a", "myapp://sale", "myapp://p/1", "myapp://zzz", "https://x.example/a"] {
            for context in contexts {
                let parsed = try ParsedURL.parse(url)
                let a = fast.rewrite(parsed, context: context)
                let b = reference.rewrite(parsed, context: context)
                #expect(a.url == b.url && a.firedRuleIDs == b.firedRuleIDs, "\(url)")
            }
        }
    }

    @Test(
        "invalid conditions are refused with the rule index",
        arguments: [
            RuleCondition(platform: ["ios", "windows"]), RuleCondition(platform: []), RuleCondition(appVersion: ">=5.x"),
            RuleCondition(activeFrom: "2026-11-11"), RuleCondition(activeUntil: "soon"),
            RuleCondition(activeFrom: "2026-11-12T00:00:00Z", activeUntil: "2026-11-11T00:00:00Z"),
            RuleCondition(percent: 101), RuleCondition(percent: -1), RuleCondition(percent: .nan),
        ])
    func invalid(condition: RuleCondition) {
        let rules = [
            RewriteRule(id: "fine", match: "a", target: "myapp://a"),
            RewriteRule(id: "bad", match: "b", target: "myapp://b", when: condition),
        ]
        do {
            _ = try RewriteEngine(rules: rules)
            Issue.record("accepted")
        } catch {
            #expect(error.issues.count == 1)
            #expect(error.issues.first?.ruleIndex == 1)
            #expect(error.issues.first?.code == .invalidCondition)
            #expect(error.issues.first?.field == .when)
        }
    }

    @Test("minAppVersion: older apps are told to open the web URL; it needs web and a version")
    func minAppVersion() throws {
        var builder = ResolverBuilder(policy: AppLinkPolicy(schemes: ["myapp"], domains: []))
        builder.add(
            Route(
                id: "pdp", module: "m", patterns: ["/p/:id"], web: WebURLTemplate("https://m.example.com/p/:id"),
                minAppVersion: "5.2.0"))
        let resolver = try builder.build()
        #expect(try resolver.resolve("myapp://p/1", context: RequestContext(appVersion: "5.1.9")).openWeb)
        #expect(try !resolver.resolve("myapp://p/1", context: RequestContext(appVersion: "5.2.0")).openWeb)
        #expect(try !resolver.resolve("myapp://p/1").openWeb)
        let old = try resolver.resolve("myapp://p/1", context: RequestContext(appVersion: "4"))
        #expect(old.json.jsonText.hasSuffix(#""webURL":"https://m.example.com/p/1","openWeb":true}"#))

        var bad = ResolverBuilder(policy: AppLinkPolicy(schemes: ["myapp"], domains: []))
        bad.add(Route(id: "no.web", module: "m", patterns: ["/a"], minAppVersion: "5"))
        bad.add(
            Route(id: "bad.version", module: "m", patterns: ["/b"], web: WebURLTemplate("https://m.example.com/"), minAppVersion: "five"))
        #expect(bad.issues.map(\.code) == ["invalid_min_app_version", "invalid_min_app_version"])
        #expect(bad.issues.map(\.subject) == [.route(id: "no.web"), .route(id: "bad.version")])
    }
}
