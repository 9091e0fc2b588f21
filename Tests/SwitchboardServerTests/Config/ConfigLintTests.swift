import Foundation
import SwitchboardCore
import SwitchboardTestSupport
import Testing

@testable import SwitchboardServer

/// `switchboard check` beyond validity: examples on rules and routes are config tests (errors),
/// and lints for shadowed rules, unreachable routes, dead rewrite targets and patterns that
/// overlap only through constraints (warnings).
struct ConfigLintTests {
    private static func check(_ files: KeyValuePairs<String, String>) throws -> ConfigCheck.Report {
        let config = try TemporaryDirectory()
        try config.write(files)
        return ConfigCheck.run(configDirectory: config.path)
    }

    private static func codes(_ issues: [ConfigIssue]) -> [String] { issues.compactMap(\.code) }

    @Test func theDemoConfigIsCleanAndItsExamplesPass() {
        let report = ConfigCheck.run(configDirectory: Package.demoConfig)
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.warnings.isEmpty, "\(report.warnings)")
    }

    @Test func aFailingRouteExampleIsAnErrorNamingFileRouteAndIndex() throws {
        let report = try Self.check([
            "switchboard.yaml": "schemes: [app]\n",
            "routes.d/p.yaml": """
            module: p
            routes:
              - id: p.detail
                pattern: /p/:id<int>
                examples:
                  - app://p/42
                  - { url: "app://p/42", params: { id: "43" } }
                  - { url: "app://p/x", matched: false }
                  - app://p/x
            """,
        ])
        let messages = report.errors.map(\.description)
        #expect(report.errors.count == 2, "\(messages)")
        #expect(
            messages.contains {
                $0.contains("routes.d/p.yaml") && $0.contains("'p.detail'") && $0.contains("example #1")
                    && $0.contains("param 'id' is \"42\", expected \"43\"")
            })
        #expect(messages.contains { $0.contains("example #3") && $0.contains("goes to no route, expected route 'p.detail'") })
    }

    @Test func ruleExamplesMustFireAndAnEarlierRuleTakingThemAllShadowsTheRule() throws {
        let report = try Self.check([
            "switchboard.yaml": "schemes: [app]\n",
            "routes.d/p.yaml": "module: p\nroutes:\n  - id: p.detail\n    pattern: /p/:id<int>\n",
            "rewrites.yaml": #"""
            rules:
              - id: broad
                match: '^https://shop\.example/(?:item|goods)/([0-9]+)'
                target: 'app://p/$1'
              - id: narrow
                match: '^https://shop\.example/item/([0-9]+)$'
                target: 'app://p/$1?from=narrow'
                examples: [https://shop.example/item/1, https://shop.example/item/2]
              - id: fine
                match: '^https://old\.example/([0-9]+)'
                target: 'app://p/$1'
                examples:
                  - { url: "https://old.example/7", rewritesTo: "app://p/7", routeId: p.detail, params: { id: "7" } }
            """#,
        ])
        #expect(report.errors.count == 2, "\(report.errors)")
        #expect(report.errors.allSatisfy { $0.item == "narrow" && $0.message.contains("rule 'broad' fired first") })
        #expect(report.warnings.contains { $0.code == "shadowed_rule" && $0.item == "narrow" && $0.message.contains("'broad'") })
        #expect(!report.warnings.contains { $0.item == "fine" })
    }

    @Test func aRouteNoURLReachesIsAWarning() throws {
        let report = try Self.check([
            "switchboard.yaml": "schemes: [app]\n",
            "routes.d/n.yaml": """
            module: n
            routes:
              - id: n.int
                pattern: /n/:id<int>
              - id: n.digits
                pattern: /n/:id<[0-9]+>
            """,
        ])
        #expect(report.errors.isEmpty, "\(report.errors)")
        let unreachable = report.warnings.filter { $0.code == "unreachable_route" }
        #expect(unreachable.map(\.item) == ["n.digits"], "\(report.warnings)")
        #expect(unreachable.first?.message.contains("goes to route 'n.int'") == true)
    }

    @Test func aHostPatternBesideOneForItsDefaultPortIsReachable() throws {
        let report = try Self.check([
            "switchboard.yaml": "domains: [shop.example.com]\n",
            "routes.d/w.yaml": """
            module: w
            routes:
              - id: w.any-port
                pattern: https://shop.example.com/d/:id
              - id: w.default-port
                pattern: https://shop.example.com:443/d/:id
            """,
        ])
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.warnings.isEmpty, "\(report.warnings)")
    }

    @Test func pathOnlyRoutesWithoutSchemesOrDomainsAreUnreachable() throws {
        let report = try Self.check(["routes.d/a.yaml": "module: a\nroutes:\n  - id: a\n    pattern: /a\n"])
        #expect(report.warnings.contains { $0.code == "unreachable_route" && $0.message.contains("`schemes` and `domains` are empty") })
    }

    @Test func aRewriteTargetThatLandsOnNoRouteIsAWarning() throws {
        let report = try Self.check([
            "switchboard.yaml": "schemes: [app]\n",
            "routes.d/p.yaml": "module: p\nroutes:\n  - id: p.detail\n    pattern: /p/:id<int>\n",
            "rewrites.yaml": #"""
            rules:
              - { id: dead, match: '^https://a\.example/(\d+)', target: 'app://nowhere/$1' }
              - { id: alive, match: '^https://b\.example/(\d+)', target: 'app://p/$1' }
              - { id: whole, match: '^https://c\.example/', target: '$url' }
            """#,
        ])
        #expect(report.warnings.filter { $0.code == "dead_target" }.map(\.item) == ["dead"], "\(report.warnings)")
    }

    @Test func patternsOverlappingOnlyThroughConstraintsAreWarnedWithAURLBothAccept() throws {
        let report = try Self.check([
            "switchboard.yaml": "schemes: [app]\n",
            "routes.d/p.yaml": """
            module: p
            routes:
              - id: p.id
                pattern: /p/:id<int>
              - id: p.slug
                pattern: /p/:slug
              - id: o.detail
                pattern: /o/:id<uuid>
              - id: o.status
                pattern: /o/:status<(open|done)>
            """,
        ])
        let overlaps = report.warnings.filter { $0.code == "constraint_overlap" }
        #expect(overlaps.count == 1, "\(report.warnings)")
        #expect(overlaps.first?.item == "p.slug")
        #expect(overlaps.first?.message.contains("app://p/42") == true)
    }

    @Test func examplesWithUnknownKeysAreRefusedWithTheKeyNamed() throws {
        let report = try Self.check([
            "switchboard.yaml": "schemes: [app]\n",
            "routes.d/p.yaml": "module: p\nroutes:\n  - id: p\n    pattern: /p\n    examples: [{ url: \"app://p\", route: p }]\n",
        ])
        #expect(report.errors.contains { $0.description.contains("unknown key 'route'") }, "\(report.errors)")
    }

    @Test func checkExitsOneOnAFailingExampleAndListsWarningsApart() throws {
        let config = try TemporaryDirectory()
        try config.write([
            "switchboard.yaml": "schemes: [app]\n",
            "routes.d/p.yaml": """
            module: p
            routes:
              - id: p.id
                pattern: /p/:id<int>
                examples: [app://p/abc]
              - id: p.slug
                pattern: /p/:slug
            """,
        ])
        let failing = try CLITests.check(config.path)
        #expect(failing.status == 1)
        #expect(failing.stdout.contains("error: \(config.path)/routes.d/p.yaml:3:5: 'p.id': example #0 app://p/abc"), "\(failing.stdout)")
        #expect(failing.stdout.contains("warning: \(config.path)/routes.d/p.yaml:6:5: 'p.slug'"), "\(failing.stdout)")

        try config.write(
            "routes.d/p.yaml", "module: p\nroutes:\n  - id: p.id\n    pattern: /p/:id<int>\n  - id: p.slug\n    pattern: /p/:slug\n")
        let warningsOnly = try CLITests.check(config.path)
        #expect(warningsOnly.status == 0, "\(warningsOnly.stdout)")
        #expect(warningsOnly.stdout.contains("1 warning"), "\(warningsOnly.stdout)")
    }

    /// A config whose examples only pass when resolved as the app and at the time they name:
    /// a rule for recent iOS apps during a sale, and a page older apps open on the web.
    static let contextFiles: KeyValuePairs<String, String> = [
        "switchboard.yaml": "schemes: [app]\n",
        "routes.d/p.yaml": """
        module: p
        routes:
          - id: home
            pattern: /home
            examples: [{ url: "app://home", platform: ios, appVersion: 5.3.0, device: d-1, at: "2026-11-10T23:00:00+08:00" }]
          - id: sale
            pattern: /sale
            web: https://m.example.com/sale
            minAppVersion: 5.2.0
            examples:
              - { url: "app://sale", appVersion: 5.1.0, openWeb: true }
              - { url: "app://sale", appVersion: 5.2.0, openWeb: false }
        """,
        "rewrites.yaml": """
        rules:
          - id: sale
            match: "^app://home$"
            target: app://sale
            when: { platform: [ios], appVersion: ">=5.2", activeFrom: "2026-11-11T00:00:00+08:00", activeUntil: "2026-11-12T00:00:00+08:00" }
            examples:
              - { url: "app://home", platform: ios, appVersion: 5.3.0, at: "2026-11-11T01:00:00+08:00", routeId: sale }
        """,
    ]

    @Test func examplesResolveWithTheirContext() throws {
        let config = try TemporaryDirectory()
        try config.write(Self.contextFiles)
        let passing = try CLITests.check(config.path)
        #expect(passing.status == 0, "\(passing.stdout)")

        // Without the context the rule never fires: the same examples fail.
        let rewrites = try #require(Self.contextFiles.first { $0.key == "rewrites.yaml" }?.value)
        try config.write(
            "rewrites.yaml",
            rewrites.replacingOccurrences(of: #"platform: ios, appVersion: 5.3.0, at: "2026-11-11T01:00:00+08:00", "#, with: ""))
        let failing = try CLITests.check(config.path)
        #expect(failing.status == 1, "\(failing.stdout)")
        #expect(failing.stdout.contains("rule #0 example #0 app://home: the rule does not fire"), "\(failing.stdout)")

        // Without its version, the app is not below the route's minAppVersion.
        let routes = try #require(Self.contextFiles.first { $0.key == "routes.d/p.yaml" }?.value)
        try config.write("rewrites.yaml", rewrites)
        try config.write("routes.d/p.yaml", routes.replacingOccurrences(of: "appVersion: 5.1.0, ", with: ""))
        let versionless = try CLITests.check(config.path)
        #expect(versionless.status == 1, "\(versionless.stdout)")
        #expect(
            versionless.stdout.contains("example #0 app://sale: the app is not sent to the web page, expected openWeb"),
            "\(versionless.stdout)")
    }

    @Test(arguments: [
        ("platform: ios9", "platform"), ("appVersion: five", "appVersion"), ("at: \"2026-11-11T01:00:00\"", "at"),
        ("device: \"\"", "device"), ("when: now", "when"),
    ])
    func anExampleContextThatIsNotValidIsALoadErrorNamingTheKey(_ entry: String, _ key: String) throws {
        let report = try Self.check([
            "switchboard.yaml": "schemes: [app]\n",
            "routes.d/p.yaml": "module: p\nroutes:\n  - id: p\n    pattern: /p\n    examples: [{ url: \"app://p\", \(entry) }]\n",
        ])
        #expect(report.errors.count == 1, "\(report.errors)")
        #expect(report.errors.first?.description.contains("examples[0].\(key)") == true, "\(report.errors)")
    }
}
