import Foundation
import SwitchboardTestSupport
import Testing

/// `switchboard resolve` with a request context: conditional rules and `minAppVersion` tried
/// before they go live.
@Suite("switchboard resolve with a context", .blockingIO)
struct ResolveContextTests {
    /// The conditional rules of ``ConditionalRulesTests``, in a config directory.
    static func config() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try directory.write("switchboard.yaml", ConditionalRulesTests.settings + "\ndata_dir: \(directory.path)/data\n")
        for (name, text) in ConditionalRulesTests.routes { try directory.write("routes.d/\(name).yaml", text) }
        try directory.write("rewrites.yaml", ConditionalRulesTests.rewrites)
        return directory
    }

    static func resolve(_ arguments: [String], config: TemporaryDirectory) throws -> CLITests.Run {
        try CLITests.run(["resolve", "--config", config.path] + arguments, in: config)
    }

    @Test("--at puts the request inside or outside a rule's time window")
    func timeWindow() throws {
        let config = try Self.config()
        let inside = try Self.resolve(["--at", "2026-11-11T01:00:00+08:00", "shopapp://sale"], config: config)
        #expect(inside.status == 0, "\(inside.stderr)")
        #expect(inside.stdout.contains(#""ruleIds":["double11"]"#), "\(inside.stdout)")
        let after = try Self.resolve(["--at", "2026-11-12T00:00:00+08:00", "shopapp://sale"], config: config)
        #expect(after.status == 0)
        #expect(!after.stdout.contains("double11"), "\(after.stdout)")
    }

    @Test("--platform and --app-version decide platform and version conditions; explain says which held")
    func platformAndVersion() throws {
        let config = try Self.config()
        let ios = try Self.resolve(["--platform", "ios", "--app-version", "5.3.0", "shopapp://home"], config: config)
        #expect(ios.stdout.contains(#""routeId":"ios.home""#), "\(ios.stdout)\(ios.stderr)")
        let old = try Self.resolve(["--platform", "ios", "--app-version", "4.9.0", "shopapp://home"], config: config)
        #expect(!old.stdout.contains("ios.home"), "\(old.stdout)")
        let android = try Self.resolve(["--platform", "android", "--app-version", "5.3.0", "shopapp://home"], config: config)
        #expect(!android.stdout.contains("ios.home"), "\(android.stdout)")
        let explained = try Self.resolve(
            ["--explain", "--platform", "android", "--app-version", "5.3.0", "shopapp://home"], config: config)
        #expect(explained.stdout.contains("ios-home") && explained.stdout.contains("platform"), "\(explained.stdout)")
    }

    @Test("--app-version below a route's minAppVersion opens the web URL")
    func minimumVersion() throws {
        let config = try Self.config()
        let old = try Self.resolve(["--app-version", "5.0.0", "shopapp://product/7"], config: config)
        #expect(old.stdout.contains(#""openWeb":true"#), "\(old.stdout)")
        let current = try Self.resolve(["--app-version", "5.2.0", "shopapp://product/7"], config: config)
        #expect(!current.stdout.contains(#""openWeb":true"#), "\(current.stdout)")
    }

    @Test(
        "a context the server would not take is exit 2 with the reason",
        arguments: [
            ["--platform", "windows"], ["--app-version", "five"], ["--at", "2026-11-11 01:00"], ["--at", "2026-11-11T01:00:00"],
        ])
    func badContext(_ options: [String]) throws {
        let run = try Self.resolve(options + ["shopapp://sale"], config: try Self.config())
        #expect(run.status == 2)
        #expect(run.stderr.contains(options[0]), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }
}
