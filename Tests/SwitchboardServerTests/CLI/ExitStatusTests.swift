import Foundation
import SwitchboardTestSupport
import Testing

/// The one exit-status rule, per command (docs/command-line.md "Exit status"): 0 success, 1 found
/// problems, 2 bad input or usage (argument-parser's own usage errors included), 3 the server
/// could not be reached or refused. The admin and export cases that need a server are in
/// ``AdminCommandTests`` and ``ExportCommandTests``.
@Suite(.blockingIO)
struct ExitStatusTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var status: Int32
        var testDescription: String { "switchboard \(arguments.joined(separator: " ")) → \(status)" }
    }

    /// `DEMO` is the demo config, `BROKEN` a config with an unknown key, `MISSING` a directory
    /// that does not exist, `URLS` a file of demo URLs, `EMPTY` an empty directory, `STATE` a
    /// data directory with admin state.
    static let cases: [Case] = [
        Case(arguments: ["--help"], status: 0),
        Case(arguments: ["--version"], status: 0),
        Case(arguments: ["no-such-command"], status: 2),
        Case(arguments: ["check", "--config", "DEMO"], status: 0),
        Case(arguments: ["check", "--config", "BROKEN"], status: 1),
        Case(arguments: ["check", "--config", "MISSING"], status: 2),
        Case(arguments: ["check", "--config", "DEMO", "--bogus"], status: 2),
        Case(arguments: ["resolve", "--config", "DEMO", "shopapp://product/42"], status: 0),
        Case(arguments: ["resolve", "--config", "DEMO", "shopapp://nothing/here"], status: 1),
        Case(arguments: ["resolve", "--config", "DEMO", "--platform", "ios9", "shopapp://product/42"], status: 2),
        Case(arguments: ["resolve", "--config", "BROKEN", "shopapp://product/42"], status: 2),
        Case(arguments: ["resolve", "--config", "DEMO"], status: 2),
        Case(arguments: ["routes", "--config", "DEMO"], status: 0),
        Case(arguments: ["routes", "--config", "MISSING"], status: 2),
        Case(arguments: ["routes", "--config", "DEMO", "--format", "xml"], status: 2),
        Case(arguments: ["diff", "--config", "DEMO", "--against", "DEMO", "--urls", "URLS"], status: 0),
        Case(arguments: ["diff", "--config", "DEMO", "--against", "EMPTY", "--urls", "URLS"], status: 1),
        Case(arguments: ["diff", "--config", "DEMO", "--against", "DEMO", "--urls", "URLS", "--platform", "ios9"], status: 2),
        Case(arguments: ["diff", "--config", "DEMO", "--against", "MISSING", "--urls", "URLS"], status: 2),
        Case(arguments: ["codegen", "swift", "--config", "DEMO"], status: 0),
        Case(arguments: ["codegen", "kotlin", "--config", "BROKEN"], status: 2),
        Case(arguments: ["migrate-store", "--from", "MISSING", "--to", "postgres://x@127.0.0.1:1/db"], status: 2),
        Case(arguments: ["migrate-store", "--from", "STATE", "--to", "postgres://x@127.0.0.1:1/db"], status: 3),
        Case(arguments: ["serve", "--config", "BROKEN", "--listen", "127.0.0.1:0"], status: 2),
        Case(arguments: ["serve", "--config", "DEMO", "--drain-seconds", "-5"], status: 2),
        Case(arguments: ["admin", "status"], status: 2),
        Case(arguments: ["admin", "status", "--server", "http://127.0.0.1:1"], status: 2),
        Case(arguments: ["admin", "apply", "--server", "http://127.0.0.1:1"], status: 2),
        Case(arguments: ["admin", "rollback", "-1"], status: 2),
        Case(arguments: ["export", "--output", "EMPTY/out", "--data-dir", "MISSING"], status: 2),
        Case(arguments: ["export", "--output", "EMPTY/out", "--data-dir", "EMPTY", "--config", "DEMO"], status: 0),
        Case(arguments: ["applinks", "check", "--config", "DEMO", "--url", "not a url"], status: 2),
        Case(arguments: ["applinks", "check", "--config", "MISSING", "--url", "https://shop.example.com"], status: 2),
        Case(arguments: ["applinks", "check", "--config", "DEMO", "--url", "http://127.0.0.1:1"], status: 3),
        Case(arguments: ["resolve", "--config", "DEMO", "--open", "--platform", "android", "shopapp://product/42"], status: 0),
    ]

    @Test(arguments: cases)
    func followsTheRule(_ example: Case) throws {
        let directory = try TemporaryDirectory()
        try directory.write([
            "broken/routes.d/x.yaml": "module: x\nroutes:\n  - id: b\n    patern: /b\n",
            "urls.txt": "shopapp://product/42\nshopapp://cart\n",
            "empty/.keep": "",
            "state/state.json": #"{"version": 1, "rules": [], "routes": [], "history": []}"#,
        ])
        try FileManager.default.removeItem(at: directory.url.appendingPathComponent("empty/.keep"))
        let names = [
            "DEMO": Package.demoConfig, "BROKEN": directory.url.appendingPathComponent("broken").path,
            "MISSING": directory.url.appendingPathComponent("missing").path, "URLS": directory.url.appendingPathComponent("urls.txt").path,
            "EMPTY": directory.url.appendingPathComponent("empty").path, "STATE": directory.url.appendingPathComponent("state").path,
        ]
        let arguments = example.arguments.map { argument in
            names.reduce(argument) { text, name in text.replacingOccurrences(of: name.key, with: name.value) }
        }
        // No server or token from the test's environment.
        let run = try CLITests.run(arguments, in: directory, environment: ["SWITCHBOARD_SERVER": "", "SWITCHBOARD_ADMIN_TOKEN": ""])
        #expect(run.status == example.status, "\(run.stdout)\(run.stderr)")
        if example.status == 2 { #expect(!run.stderr.isEmpty, "a refusal says why on standard error") }
    }
}

/// `switchboard --help` lists every subcommand with one line each.
@Suite(.blockingIO)
struct HelpTests {
    @Test func helpListsEverySubcommandOnOneLine() throws {
        let directory = try TemporaryDirectory()
        let run = try CLITests.run(["--help"], in: directory)
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "SUBCOMMANDS:"), "\(run.stdout)")
        let listed = lines[(start + 1)...].prefix { !$0.isEmpty }
        let names = [
            "serve", "resolve", "check", "routes", "diff", "codegen", "migrate-store", "admin", "export", "applinks", "healthcheck",
        ]
        #expect(listed.count == names.count, "\(run.stdout)")
        for (line, name) in zip(listed, names) {
            #expect(line.hasPrefix("  \(name) "), "\(line)")
        }
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsAreGenerated(shell: String) throws {
        let directory = try TemporaryDirectory()
        let run = try CLITests.run(["--generate-completion-script", shell], in: directory)
        #expect(run.status == 0)
        #expect(run.stdout.contains("export") && run.stdout.contains("admin"), "\(run.stdout.prefix(300))")
    }
}
