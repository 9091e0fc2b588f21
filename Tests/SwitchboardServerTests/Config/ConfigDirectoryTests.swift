import Foundation
import SwitchboardCore
import SwitchboardStore
import SwitchboardTestSupport
import Testing

@testable import SwitchboardServer

/// Reading a config directory (design.md §2): YAML and JSON files, strict keys, and every
/// problem reported with the file and the key path at fault.
struct ConfigDirectoryTests {
    /// The issues `ConfigDirectory.load` reports, or `[]` when it loads.
    static func loadIssues(_ directory: borrowing TemporaryDirectory) -> [ConfigIssue] {
        do {
            _ = try ConfigDirectory.load(from: directory.path)
            return []
        } catch {
            return error.issues
        }
    }

    /// The issues of loading, then building a snapshot; `[]` when both succeed.
    static func buildIssues(_ directory: borrowing TemporaryDirectory) throws -> [ConfigIssue] {
        let config = try ConfigDirectory.load(from: directory.path)
        do {
            _ = try Snapshot.build(config: config, admin: AdminState())
            return []
        } catch {
            return error.issues
        }
    }

    static let productRoutes = """
        module: product
        routes:
          - id: product.detail
            pattern: /product/:id<int>
            target: { page: ProductDetail }
            params: { source: deeplink }
        """

    // MARK: - Loading

    @Test func demoConfigLoadsAndBuilds() throws {
        let config = try ConfigDirectory.load(from: Package.demoConfig)
        #expect(config.settings.schemes == ["shopapp"])
        #expect(config.settings.fallback != nil)
        #expect(config.routeFiles.count >= 6)
        #expect(config.routeFiles.allSatisfy { $0.path.hasPrefix("routes.d/") })
        let snapshot = try Snapshot.build(config: config, admin: AdminState())
        #expect(snapshot.resolver.router.routes.count >= 30)
        #expect(snapshot.resolver.rewriter.rules.count >= 5)
        #expect(snapshot.configRouteCount == snapshot.resolver.router.routes.count)
        let resolution = try snapshot.resolver.resolve("shopapp://product/42?ref=push")
        #expect(
            resolution.json.jsonText == """
                {"matched":true,"url":"shopapp://product/42?ref=push","routeId":"product.detail","module":"product",\
                "pattern":"/product/:id<int>","target":{"page":"ProductDetail"},\
                "params":{"source":"deeplink","ref":"push","id":"42"}}
                """)
    }

    @Test func yamlYmlAndJSONRouteFiles() throws {
        let directory = try TemporaryDirectory()
        try directory.write([
            "switchboard.yaml": "schemes: [myapp]\ndomains: [Shop.Example.com]\n",
            "routes.d/product.yaml": Self.productRoutes,
            "routes.d/cart.json": """
            {"module": "cart", "routes": [
              {"id": "cart.show", "patterns": ["/cart", "https://shop.example.com/basket"],
               "target": {"page": "Cart", "tab": "items", "badge": 3, "flags": [true, null]}}
            ]}
            """,
            "routes.d/user.yml": "module: user\nroutes:\n  - id: user.me\n    pattern: /me\n",
            "routes.d/README.md": "not a route file",
            "routes.d/.hidden.yaml": "this: is ignored",
        ])
        let config = try ConfigDirectory.load(from: directory.path)
        #expect(config.routeFiles.map(\.path) == ["routes.d/cart.json", "routes.d/product.yaml", "routes.d/user.yml"])
        #expect(config.settings.domains == ["shop.example.com"])
        let resolver = try Snapshot.build(config: config, admin: AdminState()).resolver
        // The target keeps the key order of the file.
        #expect(
            try resolver.resolve("https://shop.example.com/basket").json.jsonText == """
                {"matched":true,"url":"https://shop.example.com/basket","routeId":"cart.show","module":"cart",\
                "pattern":"https://shop.example.com/basket",\
                "target":{"page":"Cart","tab":"items","badge":3,"flags":[true,null]},"params":{}}
                """)
        #expect(try resolver.resolve("myapp://me").match?.route.target == .object([]))
        #expect(try resolver.resolve("myapp://product/1").match?.route.module == "product")
    }

    @Test func absentOptionalFilesAreFine() throws {
        let directory = try TemporaryDirectory()
        let config = try ConfigDirectory.load(from: directory.path)
        #expect(config.settings == ServerSettings())
        #expect(config.routeFiles.isEmpty && config.rewriteRules.isEmpty)
        let snapshot = try Snapshot.build(config: config, admin: AdminState())
        #expect(try snapshot.resolver.resolve("myapp://anything").matched == false)

        try directory.write("routes.d/product.yaml", Self.productRoutes)
        #expect(try ConfigDirectory.load(from: directory.path).routeFiles.count == 1)
    }

    /// A settings file whose keys are all commented out means "every default".
    @Test(arguments: ["", "# nothing set yet\n", "---\n"])
    func emptySettingsFileMeansDefaults(text: String) throws {
        let directory = try TemporaryDirectory()
        try directory.write(["switchboard.yaml": text, "rewrites.yaml": text, "routes.d/empty.yaml": "module: empty\n"])
        let config = try ConfigDirectory.load(from: directory.path)
        #expect(config.settings == ServerSettings())
        #expect(config.rewriteRules.isEmpty)
        #expect(config.routeFiles.map(\.file) == [RouteFile(module: "empty", routes: [])])
    }

    @Test func nonexistentDirectory() throws {
        let directory = try TemporaryDirectory()
        let missing = directory.url.appendingPathComponent("nope").path
        #expect {
            try ConfigDirectory.load(from: missing)
        } throws: { error in
            let issues = (error as? ConfigIssues)?.issues ?? []
            return issues.count == 1 && issues[0].file == missing && issues[0].message.contains("not found")
        }
        // A file is not a directory either.
        try directory.write("file.yaml", "listen: x")
        #expect(throws: ConfigIssues.self) {
            try ConfigDirectory.load(from: directory.url.appendingPathComponent("file.yaml").path)
        }
    }

    // MARK: - Errors name the file and the key

    struct UnknownKeyCase: Sendable, CustomTestStringConvertible {
        var file: String
        var text: String
        var keyPath: String
        var testDescription: String { "\(file) \(keyPath)" }
    }

    static let unknownKeyCases: [UnknownKeyCase] = [
        .init(file: "switchboard.yaml", text: "schemes: [myapp]\nlsiten: 127.0.0.1:80\n", keyPath: "lsiten"),
        .init(file: "switchboard.yaml", text: "limits:\n  max_url_byte: 10\n", keyPath: "limits.max_url_byte"),
        .init(file: "routes.d/x.yaml", text: "modul: x\nroutes: []\n", keyPath: "modul"),
        .init(
            file: "routes.d/x.yaml",
            text: "module: x\nroutes:\n  - id: a\n    pattern: /a\n  - id: b\n    patern: /b\n",
            keyPath: "routes[1].patern"),
        .init(
            file: "routes.d/x.json", text: #"{"module": "x", "routes": [{"id": "a", "pattern": "/a", "taget": {}}]}"#,
            keyPath: "routes[0].taget"),
        .init(file: "rewrites.yaml", text: "rule: []\n", keyPath: "rule"),
        .init(
            file: "rewrites.yaml",
            text:
                "rules:\n  - id: a\n    match: x\n    target: myapp://a\n  - id: b\n    match: y\n    target: myapp://b\n    lsat: false\n",
            keyPath: "rules[1].lsat"),
    ]

    @Test(arguments: unknownKeyCases)
    func unknownKeyNamesFileAndKeyPath(_ example: UnknownKeyCase) throws {
        let directory = try TemporaryDirectory()
        try directory.write(example.file, example.text)
        let issues = Self.loadIssues(directory)
        #expect(issues.count == 1)
        let issue = try #require(issues.first)
        #expect(issue.file == example.file)
        #expect(issue.message.hasPrefix("\(example.keyPath): unknown key"), "\(issue.message)")
        #expect(issue.description.hasPrefix("\(example.file): \(example.keyPath): "))
    }

    @Test func yamlSyntaxErrorNamesTheFile() throws {
        let directory = try TemporaryDirectory()
        try directory.write("routes.d/product.yaml", Self.productRoutes)
        try directory.write("routes.d/broken.yaml", "module: broken\nroutes:\n  - id: [unclosed\n    pattern: /x\n")
        let issues = Self.loadIssues(directory)
        #expect(issues.count == 1)
        let issue = try #require(issues.first)
        #expect(issue.file == "routes.d/broken.yaml")
        #expect(issue.message.contains("YAML"), "\(issue.message)")
        #expect(issue.message.contains("line 3") || issue.message.contains("4:"), "\(issue.message)")
    }

    @Test func missingPattern() throws {
        let directory = try TemporaryDirectory()
        try directory.write("routes.d/x.yaml", "module: x\nroutes:\n  - id: nopattern\n    target: { page: X }\n")
        let issue = try #require(Self.loadIssues(directory).first)
        #expect(issue.file == "routes.d/x.yaml")
        #expect(issue.message.hasPrefix("routes[0]"), "\(issue.message)")
        #expect(issue.message.contains("'pattern'") && issue.message.contains("nopattern"))
    }

    @Test(arguments: ["ProductDetail", "[a, b]", "42"])
    func targetMustBeAnObject(target: String) throws {
        let directory = try TemporaryDirectory()
        try directory.write("routes.d/x.yaml", "module: x\nroutes:\n  - id: t\n    pattern: /t\n    target: \(target)\n")
        let issues = Self.loadIssues(directory)
        #expect(issues.count == 1)
        #expect(issues.first?.file == "routes.d/x.yaml")
        #expect(issues.first?.message.hasPrefix("routes[0].target: ") == true, "\(issues)")
        #expect(issues.first?.message.contains("object") == true)
    }

    @Test func missingModuleAndMistypedValues() throws {
        let directory = try TemporaryDirectory()
        try directory.write([
            "routes.d/a.yaml": "routes: []\n",
            "routes.d/b.yaml": "module: b\nroutes:\n  - id: b\n    pattern: /b\n    params: { page: { nested: 1 } }\n",
            "switchboard.yaml": "threads: many\n",
        ])
        let issues = Self.loadIssues(directory)
        #expect(issues.map(\.file) == ["switchboard.yaml", "routes.d/a.yaml", "routes.d/b.yaml"])
        #expect(issues[0].message.hasPrefix("threads: "))
        #expect(issues[1].message.contains("'module'"))
        #expect(issues[2].message.hasPrefix("routes[0].params.page: "), "\(issues[2].message)")
    }

    @Test("resolve_cache_bytes: 0 turns the cache off; a negative size is refused, naming the key")
    func resolveCacheBytes() throws {
        let off = try TemporaryDirectory()
        try off.write(["switchboard.yaml": "resolve_cache_bytes: 0\n"])
        #expect(try ConfigDirectory.load(from: off.path).settings.resolveCacheBytes == 0)
        let negative = try TemporaryDirectory()
        try negative.write(["switchboard.yaml": "resolve_cache_bytes: -1\n"])
        let issues = Self.loadIssues(negative)
        #expect(issues.count == 1)
        #expect(issues.first?.message.contains("resolve_cache_bytes") == true, "\(issues)")
    }

    @Test func everyBrokenFileIsReported() throws {
        let directory = try TemporaryDirectory()
        try directory.write([
            "switchboard.yaml": "schemes: [myapp]\nfallbak: x\n",
            "rewrites.yaml": "rules:\n  - id: a\n    match: x\n",
            "routes.d/a.yaml": "module: a\nroutes:\n  - id: [oops\n",
            "routes.d/b.yaml": "module: b\nroutes:\n  - id: b\n",
            "routes.d/c.yaml": Self.productRoutes,
            "routes.d/d.json": #"{"module": "d", "routes": [{"id": "d", "pattern": "/d", "target": "D"}]}"#,
        ])
        let issues = Self.loadIssues(directory)
        #expect(
            issues.map(\.file) == [
                "switchboard.yaml", "rewrites.yaml", "routes.d/a.yaml", "routes.d/b.yaml", "routes.d/d.json",
            ])
        #expect(issues[1].message.contains("rules[0]") && issues[1].message.contains("target"), "\(issues[1])")
    }

    // MARK: - Errors found when building the snapshot

    @Test func duplicateRouteIDAcrossFiles() throws {
        let directory = try TemporaryDirectory()
        try directory.write([
            "routes.d/a.yaml": "module: a\nroutes:\n  - id: shared.id\n    pattern: /a\n",
            "routes.d/b.yaml": "module: b\nroutes:\n  - id: other\n    pattern: /other\n  - id: shared.id\n    pattern: /b\n",
        ])
        let issues = try Self.buildIssues(directory)
        #expect(issues.count == 1)
        let issue = try #require(issues.first)
        // The file with the second definition is at fault; the message points at the first.
        #expect(issue.file == "routes.d/b.yaml")
        #expect(issue.item == "shared.id")
        #expect(issue.message.contains("routes.d/a.yaml"), "\(issue.message)")
    }

    @Test func adminRouteWithAConfigIDIsBlamedOnTheAdminState() throws {
        let directory = try TemporaryDirectory()
        try directory.write("routes.d/product.yaml", Self.productRoutes)
        let config = try ConfigDirectory.load(from: directory.path)
        let admin = AdminState(routes: [
            AdminRoute(module: "admin", definition: RouteDefinition(id: "flash.sale", patterns: ["/flash"])),
            AdminRoute(module: "admin", definition: RouteDefinition(id: "product.detail", patterns: ["/p2/:id"])),
        ])
        #expect {
            try Snapshot.build(config: config, admin: admin)
        } throws: { error in
            let issues = (error as? ConfigIssues)?.issues ?? []
            return issues.count == 1 && issues[0].file == "admin state" && issues[0].item == "product.detail"
                && issues[0].message.contains("routes.d/product.yaml")
        }
    }

    @Test func conflictAcrossFilesNamesBothIDs() throws {
        let directory = try TemporaryDirectory()
        try directory.write([
            "routes.d/a.yaml": "module: a\nroutes:\n  - id: search.a\n    pattern: /s/:a\n",
            "routes.d/b.yaml": "module: b\nroutes:\n  - id: search.b\n    pattern: /s/:b\n",
        ])
        let issues = try Self.buildIssues(directory)
        #expect(issues.count == 1)
        let issue = try #require(issues.first)
        #expect(issue.file == "routes.d/b.yaml")
        #expect(issue.item == "search.b")
        #expect(issue.message.contains("search.a"))
        #expect(issue.description.contains("search.a") && issue.description.contains("search.b"))
    }

    @Test func badRegexNamesTheRuleIndex() throws {
        let directory = try TemporaryDirectory()
        try directory.write(
            "rewrites.yaml",
            """
            rules:
              - id: fine
                match: '^myapp://a/'
                target: 'myapp://b/'
              - id: broken
                match: '^myapp://(unclosed'
                target: 'myapp://c/'
              - id: bad-group
                match: '^myapp://d/'
                target: 'myapp://e/$1'
            """)
        let issues = try Self.buildIssues(directory)
        #expect(issues.map(\.file) == ["rewrites.yaml", "rewrites.yaml"])
        #expect(issues.map(\.item) == ["broken", "bad-group"])
        #expect(issues[0].message.hasPrefix("rule #1: "), "\(issues[0].message)")
        #expect(issues[1].message.hasPrefix("rule #2: "), "\(issues[1].message)")
    }

    @Test func badFallbackAndBadPatternAreReportedTogether() throws {
        let directory = try TemporaryDirectory()
        try directory.write([
            "switchboard.yaml": "fallback: 'https://m.example.com/?from=$nope'\n",
            "routes.d/a.yaml": "module: a\nroutes:\n  - id: bad.pattern\n    pattern: '/a/:'\n",
            "routes.d/b.yaml": Self.productRoutes,
        ])
        let issues = try Self.buildIssues(directory)
        #expect(issues.map(\.file) == ["routes.d/a.yaml", "switchboard.yaml"])
        #expect(issues.map(\.item) == ["bad.pattern", "fallback"])
    }

    @Test func maxRoutesLimitFromSettings() throws {
        let directory = try TemporaryDirectory()
        try directory.write([
            "switchboard.yaml": "limits:\n  max_routes: 1\n",
            "routes.d/a.yaml": "module: a\nroutes:\n  - id: one\n    pattern: /1\n  - id: two\n    pattern: /2\n",
        ])
        let issues = try Self.buildIssues(directory)
        #expect(issues.map(\.item) == ["two"])
        #expect(issues.first?.message.contains("max_routes") == true)
    }

    @Test("admin_tokens: role defaults to write; a role other than read or write is an error naming the key")
    func adminTokenRoles() throws {
        let directory = try TemporaryDirectory()
        try directory.write(
            "switchboard.yaml",
            "admin_tokens:\n  - { name: dash, token_env: T_DASH, role: read }\n  - { name: ci, token_env: T_CI }\n")
        let settings = try ConfigDirectory.load(from: directory.path).settings
        #expect(settings.adminTokens.map(\.role) == [.read, .write])
        try directory.write("switchboard.yaml", "admin_tokens:\n  - { name: dash, token_env: T_DASH, role: admin }\n")
        let issues = Self.loadIssues(directory)
        #expect(issues.count == 1)
        #expect(issues.first?.message.hasPrefix("admin_tokens[0].role: ") == true, "\(issues)")
        #expect(issues.first?.message.contains("must be read or write, not 'admin'") == true, "\(issues)")
    }
}
