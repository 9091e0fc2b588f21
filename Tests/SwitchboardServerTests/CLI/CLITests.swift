import Foundation
import SwitchboardCore
import SwitchboardStore
import SwitchboardTestSupport
import Testing

@testable import SwitchboardServer

/// The `switchboard` executable, run as a subprocess (design.md §8): `resolve` prints exactly the
/// `/resolve` JSON and exits 0 / 1 / 2; `check` exits 0 / 1 and names what is wrong.
///
/// `swift build --build-tests` (and `swift test`) build every product, so the executable sits
/// in the products directory next to the test runner.
@Suite(.blockingIO)
struct CLITests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Where the executable is: `SWITCHBOARD_BINARY`, else next to the test runner (or a few
    /// folders up, for bundles), else the checkout's `.build/debug`.
    static let binary: URL? = {
        let fileManager = FileManager.default
        if let path = ProcessInfo.processInfo.environment["SWITCHBOARD_BINARY"] {
            return URL(fileURLWithPath: path)
        }
        var runners: [URL] = []
        if let executable = Bundle.main.executableURL { runners.append(executable.resolvingSymlinksInPath()) }
        if let first = CommandLine.arguments.first {
            runners.append(URL(fileURLWithPath: first).resolvingSymlinksInPath())
        }
        var candidates: [URL] = []
        for runner in runners {
            var folder = runner.deletingLastPathComponent()
            for _ in 0..<4 {
                candidates.append(folder.appendingPathComponent("switchboard"))
                folder = folder.deletingLastPathComponent()
            }
        }
        candidates.append(Package.root.appendingPathComponent(".build/debug/switchboard"))
        return candidates.first { url in
            var isDirectory: ObjCBool = false
            return fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
                && fileManager.isExecutableFile(atPath: url.path)
        }
    }()

    /// Runs `switchboard arguments…` with `directory` as the working directory (so that the
    /// default `data_dir`, `./data`, is inside it), and `environment` added to the test
    /// process's own.
    static func run(
        _ arguments: [String], in directory: borrowing TemporaryDirectory, environment: [String: String] = [:]
    ) throws -> Run {
        let binary = try #require(Self.binary, "the switchboard executable was not found; build it first")
        let output = directory.url.appendingPathComponent(".stdout")
        let errors = directory.url.appendingPathComponent(".stderr")
        try Data().write(to: output)
        try Data().write(to: errors)
        let process = try ChildProcess(
            binary.path, arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            directory: directory.url.path, standardOutput: .file(output.path),
            standardError: .file(errors.path))
        let ending = process.waitUntilExit()
        return Run(
            status: ending.status,
            stdout: String(decoding: try Data(contentsOf: output), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errors), as: UTF8.self))
    }

    static func resolve(_ url: String, config: String = Package.demoConfig) throws -> Run {
        let directory = try TemporaryDirectory()
        return try run(["resolve", "--config", config, url], in: directory)
    }

    static func check(_ config: String) throws -> Run {
        let directory = try TemporaryDirectory()
        return try run(["check", "--config", config], in: directory)
    }

    // MARK: - resolve

    struct ResolveCase: Sendable, CustomTestStringConvertible {
        var url: String
        var status: Int32
        var json: String
        var testDescription: String { url }
    }

    static let resolveCases: [ResolveCase] = [
        .init(
            url: "shopapp://product/42?ref=push", status: 0,
            json:
                #"{"matched":true,"url":"shopapp://product/42?ref=push","routeId":"product.detail","module":"product","pattern":"/product/:id<int>","target":{"page":"ProductDetail"},"params":{"source":"deeplink","ref":"push","id":"42"}}"#
        ),
        .init(
            url: "https://shop.example.com/search/red%2520shoes", status: 0,
            json:
                #"{"matched":true,"url":"https://shop.example.com/search/red%2520shoes","rewrittenURL":"shopapp://search/red%2520shoes","ruleIds":["web-search-to-native"],"routeId":"search.results","module":"search","pattern":"/search(/:query)(/page/:page<int>)","target":{"page":"SearchResults"},"params":{"query":"red%20shoes"}}"#
        ),
        .init(
            url: "shopapp://goods/7", status: 0,
            json:
                #"{"matched":true,"url":"shopapp://goods/7","rewrittenURL":"shopapp://product/7","ruleIds":["goods-renamed"],"routeId":"product.detail","module":"product","pattern":"/product/:id<int>","target":{"page":"ProductDetail"},"params":{"source":"deeplink","id":"7"}}"#
        ),
        .init(
            url: "shopapp://live/5", status: 0,
            json:
                #"{"matched":true,"url":"shopapp://live/5","rewrittenURL":"https://m.shop.example.com/live/5","ruleIds":["live-degraded-to-web"],"routeId":"marketing.mobile-web","module":"marketing","pattern":"https://m.shop.example.com/*path","target":{"page":"WebView","mobileSite":true},"params":{"path":"live/5"}}"#
        ),
        .init(
            url: "shopapp://nothing/here", status: 1,
            json:
                #"{"matched":false,"url":"shopapp://nothing/here","fallback":"https://m.shop.example.com/?from=shopapp%3A%2F%2Fnothing%2Fhere"}"#
        ),
        .init(
            url: "ftp://files.example.com/a", status: 1,
            json:
                #"{"matched":false,"url":"ftp://files.example.com/a","fallback":"https://m.shop.example.com/?from=ftp%3A%2F%2Ffiles.example.com%2Fa"}"#
        ),
    ]

    @Test(arguments: resolveCases)
    func resolvePrintsTheJSON(_ example: ResolveCase) throws {
        let run = try Self.resolve(example.url)
        #expect(run.status == example.status, "\(run.stderr)")
        #expect(run.stdout == example.json + "\n")
        #expect(run.stderr.isEmpty)
    }

    @Test(arguments: ["not a url", "shopapp://product/42?x=%FF", "shopapp://search/%C3%28", "shopapp://a b", ""])
    func resolveMalformedURLExitsWith2(url: String) throws {
        let run = try Self.resolve(url)
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("invalid"), "\(run.stderr)")
    }

    @Test func resolveWithABrokenConfigExitsWith2() throws {
        let config = try TemporaryDirectory()
        try config.write("routes.d/x.yaml", "module: x\nroutes:\n  - id: a\n    patern: /a\n")
        let run = try Self.resolve("myapp://a", config: config.path)
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("routes.d/x.yaml") && run.stderr.contains("routes[0].patern"), "\(run.stderr)")

        let missing = try Self.resolve("myapp://a", config: config.url.appendingPathComponent("missing").path)
        #expect(missing.status == 2)
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderr.contains("not found"), "\(missing.stderr)")
    }

    /// `resolve` sees the admin state persisted in `data_dir` (relative to the working directory).
    @Test func resolveUsesThePersistedAdminState() throws {
        let directory = try TemporaryDirectory()
        let admin = AdminState(
            version: 1, rules: [RewriteRule(id: "sale", match: "^shopapp://sale$", target: "shopapp://flash/1")],
            routes: [
                AdminRoute(
                    module: "flash",
                    definition: RouteDefinition(
                        id: "flash.sale", patterns: ["/flash/:id<int>"],
                        target: .object([("page", .string("FlashSale")), ("banner", .bool(true))])))
            ])
        try FileAdminStore(directory: directory.url.appendingPathComponent("data").path).save(admin)
        let run = try Self.run(["resolve", "--config", Package.demoConfig, "shopapp://sale"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout == #"""
                {"matched":true,"url":"shopapp://sale","rewrittenURL":"shopapp://flash/1","ruleIds":["sale"],"routeId":"flash.sale","module":"flash","pattern":"/flash/:id<int>","target":{"page":"FlashSale","banner":true},"params":{"id":"1"}}

                """#)

        try directory.write("data/state.json", "{corrupt")
        let corrupt = try Self.run(["resolve", "--config", Package.demoConfig, "shopapp://sale"], in: directory)
        #expect(corrupt.status == 2)
        #expect(corrupt.stderr.contains("state.json") && corrupt.stderr.contains("not modified"), "\(corrupt.stderr)")
    }

    // MARK: - check

    @Test func versionPrintsTheOneVersion() throws {
        let directory = try TemporaryDirectory()
        let run = try Self.run(["--version"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == SwitchboardVersion.description)
    }

    @Test func checkAcceptsTheDemoConfig() throws {
        let run = try Self.check(Package.demoConfig)
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdout.hasPrefix("ok: "), "\(run.stdout)")
        #expect(run.stdout.contains(" routes, ") && run.stdout.contains(" rules"))
    }

    @Test func checkNamesTheFileAndKey() throws {
        let config = try TemporaryDirectory()
        try config.write([
            "switchboard.yaml": "schemes: [myapp]\n",
            "routes.d/a.yaml": "module: a\nroutes:\n  - id: a\n    pattern: /a\n",
            "routes.d/x.yaml": "module: x\nroutes:\n  - id: ok\n    pattern: /ok\n  - id: b\n    patern: /b\n",
        ])
        let run = try Self.check(config.path)
        #expect(run.status == 1)
        let errors = run.stdout.split(separator: "\n").filter { $0.hasPrefix("error: ") }
        #expect(errors.count == 1, "\(run.stdout)")
        #expect(errors.first?.contains("routes.d/x.yaml:6:5: routes[1].patern: unknown key") == true, "\(run.stdout)")
    }

    @Test func checkReportsConflictsWithBothIDs() throws {
        let config = try TemporaryDirectory()
        try config.write([
            "routes.d/a.yaml": "module: a\nroutes:\n  - id: search.a\n    pattern: /s/:a\n",
            "routes.d/b.yaml": "module: b\nroutes:\n  - id: search.b\n    pattern: /s/:b\n",
        ])
        let run = try Self.check(config.path)
        #expect(run.status == 1)
        #expect(run.stdout.contains("routes.d/b.yaml") && run.stdout.contains("search.a") && run.stdout.contains("search.b"))
    }

    @Test func checkFindsARuleThatCanNeverFire() throws {
        let config = try TemporaryDirectory()
        let rule = """
              - id: %@
                match: '^myapp://old/(.*)'
                target: 'myapp://%@/$1'
                last: %@

            """
        func rules(_ entries: [(String, Bool)]) -> String {
            "rules:\n" + entries.map { String(format: rule, $0.0, $0.0, $0.1 ? "true" : "false") }.joined()
        }
        try config.write("rewrites.yaml", rules([("first", true), ("second", true)]))
        let run = try Self.check(config.path)
        #expect(run.status == 1)
        let errors = run.stdout.split(separator: "\n").filter { $0.hasPrefix("error: ") }
        #expect(errors.count == 1, "\(run.stdout)")
        let error = try #require(errors.first)
        #expect(error.contains("rewrites.yaml") && error.contains("'second'") && error.contains("'first'"), "\(error)")
        #expect(error.contains("never fire"))

        // With `last: false` the first rule lets the rewritten URL go on: no lint.
        try config.write("rewrites.yaml", rules([("first", false), ("second", true)]))
        let chained = try Self.check(config.path)
        #expect(chained.status == 0, "\(chained.stdout)")
    }

    @Test func checkOfAMissingDirectoryIsBadInput() throws {
        let directory = try TemporaryDirectory()
        let run = try Self.check(directory.url.appendingPathComponent("nope").path)
        #expect(run.status == 2)
        #expect(run.stdout.contains("not found"))
    }
}
