import Foundation
import Logging
import SwitchboardHTTP
import SwitchboardTestSupport
import Testing

/// `switchboard admin …` against a live server (the built executable, over loopback): apply
/// makes the server equal to a file, a dry run previews and changes nothing, a concurrent
/// change is a clear 412 report, and every failure has its exit status.
@Suite(.blockingIO)
struct AdminCommandTests {
    static let token = "cli-admin-token-0123456789abcdef"

    /// A hotfix: a rule that sends old goods links to products, and a route of its own module.
    static let hotfix = """
        rules:
          - id: hotfix-goods
            match: '^shopapp://goods/old/([0-9]+)'
            target: 'shopapp://product/$1'
        routes:
          - id: hotfix.landing
            module: hotfix
            pattern: /hotfix/:id<int>
            target: { page: Hotfix, reason: "incident 42" }

        """

    /// A demo server with the test token, and a working directory for the files of one test.
    final class Live {
        let config: TestConfig
        let server: ServerProcess
        let directory: TemporaryDirectory
        var address: String { "http://127.0.0.1:\(server.port)" }

        /// - Parameters:
        ///   - settings: lines added to the demo's `switchboard.yaml`.
        ///   - environment: the server's environment besides its token.
        init(settings: String = "", environment: [String: String] = [:]) async throws {
            config = try TestConfig.demo()
            if !settings.isEmpty {
                let demo = try String(contentsOf: Repository.demoConfig.appendingPathComponent("switchboard.yaml"), encoding: .utf8)
                try config.writeSettings(demo + "\n" + settings)
            }
            server = try ServerProcess(config: config, token: AdminCommandTests.token, environment: environment)
            try await server.waitUntilListening()
            directory = try TemporaryDirectory()
        }

        /// Runs `switchboard arguments…` with the server and token in its environment.
        func run(_ arguments: [String], server: String? = nil, token: String = AdminCommandTests.token) throws -> CLITests.Run {
            try CLITests.run(
                arguments, in: directory,
                environment: ["SWITCHBOARD_SERVER": server ?? address, "SWITCHBOARD_ADMIN_TOKEN": token])
        }

        /// Writes `text` to a file of the working directory and returns its path.
        func file(_ name: String, _ text: String) throws -> String {
            try directory.write(name, text)
            return directory.url.appendingPathComponent(name).path
        }

        /// The admin version the server is at.
        func version() throws -> Int {
            let response = try server.client().admin("GET", "/admin/status", token: AdminCommandTests.token)
            let status = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
            return try #require(status["version"] as? Int)
        }
    }

    @Test func applyMakesTheServerEqualToTheFile() async throws {
        let live = try await Live()
        let file = try live.file("hotfix.yaml", Self.hotfix)
        let applied = try live.run(["admin", "apply", "-f", file])
        #expect(applied.status == 0, "\(applied.stdout)\(applied.stderr)")
        #expect(applied.stdout.contains("+ rule hotfix-goods\n+ route hotfix.landing\n"), "\(applied.stdout)")
        #expect(applied.stdout.contains("applied: version 0 -> 1"), "\(applied.stdout)")

        let client = try live.server.client()
        let resolved = try client.resolve("shopapp://goods/old/7")
        #expect(resolved.text.contains(#""routeId":"product.detail""#) && resolved.text.contains("hotfix-goods"), "\(resolved.text)")
        #expect(try client.resolve("shopapp://hotfix/3").text.contains(#""routeId":"hotfix.landing""#))

        // What `get` prints is what `apply` takes back: applying it changes nothing.
        let rules = try live.run(["admin", "rules", "get", "--output", "rules.yaml"])
        let routes = try live.run(["admin", "routes", "get"])
        #expect(rules.status == 0 && routes.status == 0, "\(rules.stderr)\(routes.stderr)")
        #expect(routes.stdout.contains(#"reason: "incident 42""#), "\(routes.stdout)")
        let again = try live.run(["admin", "apply", "-f", live.directory.url.appendingPathComponent("rules.yaml").path])
        #expect(again.status == 0)
        #expect(again.stdout.hasPrefix("up to date: the server's admin state at version 1"), "\(again.stdout)")
        let rulesText = try String(contentsOf: live.directory.url.appendingPathComponent("rules.yaml"), encoding: .utf8)
        let both = try live.file("both.yaml", rulesText + routes.stdout)
        #expect(try live.run(["admin", "apply", "-f", both]).stdout.hasPrefix("up to date"))

        // A file without routes leaves the routes; an empty list of rules removes the rules.
        let cleared = try live.run(["admin", "apply", "-f", try live.file("clear.yaml", "rules: []\n")])
        #expect(cleared.status == 0, "\(cleared.stderr)")
        #expect(cleared.stdout.hasPrefix("- rule hotfix-goods\napplied: version 1 -> 2"), "\(cleared.stdout)")
        #expect(try client.resolve("shopapp://hotfix/3").text.contains(#""routeId":"hotfix.landing""#))
        #expect(!(try client.resolve("shopapp://goods/old/7").text.contains("hotfix-goods")))

        let history = try live.run(["admin", "history", "--limit", "2"])
        #expect(history.status == 0)
        let lines = history.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("2  ") && lines[0].contains("state.replace"), "\(history.stdout)")

        let rollback = try live.run(["admin", "rollback", "1"])
        #expect(rollback.status == 0, "\(rollback.stderr)")
        #expect(rollback.stdout.contains("now version 3"), "\(rollback.stdout)")
        #expect(try client.resolve("shopapp://goods/old/7").text.contains("hotfix-goods"))

        let status = try live.run(["admin", "status"])
        #expect(status.status == 0)
        #expect(status.stdout.hasPrefix(#"{"version":3,"#), "\(status.stdout)")
    }

    @Test func dryRunShowsThePreviewAndChangesNothing() async throws {
        let live = try await Live(settings: "traffic_sample: { every: 1 }\n")
        let client = try live.server.client()
        for id in 0..<4 { _ = try client.resolve("shopapp://goods/old/\(id)") }
        let dryRun = try live.run(["admin", "apply", "-f", try live.file("hotfix.yaml", Self.hotfix), "--dry-run"])
        #expect(dryRun.status == 1, "\(dryRun.stdout)\(dryRun.stderr)")
        #expect(dryRun.stdout.contains("+ rule hotfix-goods"), "\(dryRun.stdout)")
        #expect(dryRun.stdout.contains("preview over 4 sampled links (4 distinct): 4 would change"), "\(dryRun.stdout)")
        #expect(dryRun.stdout.contains("404 (no route) -> 200 product.detail  rules: hotfix-goods"), "\(dryRun.stdout)")
        #expect(dryRun.stdout.contains("dry run: nothing changed (version 0)"), "\(dryRun.stdout)")
        #expect(try live.version() == 0)
        #expect(!(try client.resolve("shopapp://goods/old/1").text.contains("hotfix-goods")))
    }

    @Test func aConcurrentChangeIsAClear412() async throws {
        let live = try await Live()
        // Between the apply's read and its write, someone else adds a rule.
        let port = live.server.port
        let proxy = try InterposingProxy(to: port) { request in
            guard request.method == "PUT", request.path == "/admin/state" else { return }
            _ = try? HTTPTestClient(port: port).admin(
                "POST", "/admin/rules", token: AdminCommandTests.token,
                json: #"{"id":"someone-else","match":"^shopapp://x$","target":"shopapp://y"}"#)
        }
        let run = try live.run(
            ["admin", "apply", "-f", try live.file("hotfix.yaml", Self.hotfix)], server: "http://127.0.0.1:\(proxy.port)")
        #expect(run.status == 3, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("412 version_mismatch"), "\(run.stderr)")
        #expect(run.stderr.contains("after this apply read version 0; nothing was changed and nothing is retried"), "\(run.stderr)")
        #expect(run.stderr.contains("The version that won: 1  ") && run.stderr.contains("rules.add  someone-else"), "\(run.stderr)")
        #expect(try live.version() == 1)
    }

    @Test func badInputChangesNothing() async throws {
        let live = try await Live()
        let unparsable = try live.run(["admin", "apply", "-f", try live.file("bad.yaml", "rules:\n  - id: a\n    match: [x\n")])
        #expect(unparsable.status == 2)
        #expect(
            unparsable.stderr.contains("bad.yaml:4:1: YAML syntax error") || unparsable.stderr.contains("bad.yaml:4:1:"),
            "\(unparsable.stderr)")

        let unknownKey = try live.run(["admin", "apply", "-f", try live.file("key.yaml", "rules: []\nroute: []\n")])
        #expect(unknownKey.status == 2)
        #expect(unknownKey.stderr.contains("key.yaml:2:1: route: unknown key"), "\(unknownKey.stderr)")

        // The server's own 400, shown at the rule's line.
        let rules = """
            rules:
              - id: fine
                match: '^shopapp://a$'
                target: 'shopapp://b'
              - id: broken
                match: '^shopapp://(['
                target: 'shopapp://c'

            """
        let invalid = try live.run(["admin", "apply", "-f", try live.file("rules.yaml", rules)])
        #expect(invalid.status == 2, "\(invalid.stdout)\(invalid.stderr)")
        #expect(invalid.stderr.contains("the server refused (400 invalid_rule)"), "\(invalid.stderr)")
        #expect(invalid.stderr.contains("rules.yaml:5:5: 'broken': "), "\(invalid.stderr)")
        #expect(try live.version() == 0)
    }

    @Test func refusalsAndAnUnreachableServerExitWith3() async throws {
        let live = try await Live()
        let wrongToken = try live.run(["admin", "status"], token: "not-the-token-but-long-enough-0123")
        #expect(wrongToken.status == 3)
        #expect(wrongToken.stderr.contains("the server refused (401"), "\(wrongToken.stderr)")

        let closed = try TemporaryDirectory()
        let down = try CLITests.run(
            ["admin", "status", "--server", "http://127.0.0.1:1"], in: closed, environment: ["SWITCHBOARD_ADMIN_TOKEN": Self.token])
        #expect(down.status == 3)
        #expect(down.stderr.contains("cannot reach http://127.0.0.1:1"), "\(down.stderr)")

        let noToken = try CLITests.run(
            ["admin", "status", "--server", live.address, "--token-file", closed.url.appendingPathComponent("none").path], in: closed)
        #expect(noToken.status == 2)
        #expect(noToken.stderr.contains("cannot read the token file"), "\(noToken.stderr)")

        try closed.write("token", Self.token + "\n")
        let fromFile = try CLITests.run(
            ["admin", "status", "--server", live.address, "--token-file", closed.url.appendingPathComponent("token").path], in: closed)
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
    }
}

/// A loopback HTTP proxy in front of a server that runs `before` on each request before it
/// forwards it: a test's way to make a change land between a client's read and its write.
final class InterposingProxy: Sendable {
    let server: HTTPServer
    var port: Int { server.boundPort }

    init(to upstream: Int, before: @escaping @Sendable (HTTPRequest) -> Void) throws {
        server = try HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0), logger: Logger(label: "proxy")
        ) { request, _ in
            before(request)
            do {
                let client = try HTTPTestClient(port: upstream)
                let headers = request.headers.filter { !["host", "content-length", "connection"].contains($0.name.lowercased()) }
                let answer = try client.request(
                    request.method, request.target, headers: headers.map { ($0.name, $0.value) },
                    body: request.body.isEmpty ? nil : request.body)
                return HTTPResponse(
                    status: answer.status,
                    headers: answer.headers.filter { !["content-length", "connection", "date"].contains($0.name.lowercased()) }
                        .map { ($0.name, $0.value) },
                    body: answer.body)
            } catch {
                return HTTPResponse(status: 502, body: Array("\(error)".utf8))
            }
        }
        try server.start()
    }
}
