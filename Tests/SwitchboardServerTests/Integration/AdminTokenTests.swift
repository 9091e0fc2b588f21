import Foundation
import Logging
import SwitchboardHTTP
import SwitchboardServer
import SwitchboardTestSupport
import Testing

extension IntegrationTests {
    /// Admin tokens that are hard to guess and cheap to rotate: weak tokens refuse to start,
    /// `token_file` is read again at every reload, and an address that sends too many wrong
    /// tokens is refused for the rest of the minute.
    @Suite("Admin tokens over loopback")
    struct AdminTokenTests {
        static let routes = ["me.yaml": "module: me\nroutes: [{ id: me, pattern: /me }]\n"]

        /// Why the server refused to start with `settings` and `environment`, or `nil` when it started.
        static func startupRefusal(settings: String = "", environment: [String: String]) throws -> String? {
            let config = try TestConfig.minimal(routes: routes, settings: settings)
            var logger = Logger(label: "admin-token-tests")
            logger.logLevel = .critical
            do {
                let application = try SwitchboardApplication(
                    configDirectory: config.directory, listen: "127.0.0.1:0", environment: { environment }, signals: nil,
                    logger: logger)
                application.server.stopNow()
                return nil
            } catch {
                return "\(error)"
            }
        }

        @Test(
            "a placeholder or a token under 24 characters refuses to start, naming the setting",
            arguments: ["change-me", "secret", "Password", "admin", "token", "test", "s3cret", String(repeating: "x", count: 23)])
        func weakTokensRefuseToStart(token: String) throws {
            let refusal = try Self.startupRefusal(environment: ["SWITCHBOARD_ADMIN_TOKEN": token])
            #expect(refusal?.contains("admin token 'admin' (token_env SWITCHBOARD_ADMIN_TOKEN)") == true, "\(refusal ?? "started")")
            #expect(refusal?.contains("openssl rand -hex 24") == true, "\(refusal ?? "started")")
            if token.count < 9 {
                #expect(refusal?.contains("placeholder") == true || refusal?.contains("characters long") == true)
            }
        }

        @Test("24 characters start; a weak named token or an unreadable token file refuses to start")
        func namedTokensAndFiles() throws {
            #expect(try Self.startupRefusal(environment: ["SWITCHBOARD_ADMIN_TOKEN": String(repeating: "x", count: 24)]) == nil)
            let named = try Self.startupRefusal(
                settings: "admin_tokens: [{ name: bot, token_env: TOKEN_BOT }]",
                environment: ["SWITCHBOARD_ADMIN_TOKEN": TestToken.admin, "TOKEN_BOT": "change-me"])
            #expect(named?.contains("admin token 'bot' (token_env TOKEN_BOT) is the placeholder 'change-me'") == true, "\(named ?? "")")
            let missing = try Self.startupRefusal(
                settings: "admin_token_file: /nonexistent/switchboard-token", environment: [:])
            #expect(
                missing?.contains("admin token 'admin' (token_file /nonexistent/switchboard-token) cannot be read") == true,
                "\(missing ?? "started")")
        }

        @Test("token_file is read again at every reload; a file that cannot be read keeps the token in force")
        func tokenFileRotates() async throws {
            let secrets = try TemporaryDirectory()
            let file = secrets.path + "/token"
            try Data("\(TestToken.named("first"))\n".utf8).write(to: URL(fileURLWithPath: file))
            let config = try TestConfig.minimal(
                routes: Self.routes, settings: "admin_tokens: [{ name: deployer, token_file: \(file) }]")
            let server = try await InProcessServer(config: config)
            let client = try server.client()
            #expect(try client.admin("GET", "/admin/status", token: TestToken.named("first")).status == 200)

            try Data(TestToken.named("second").utf8).write(to: URL(fileURLWithPath: file))
            #expect(try client.admin("POST", "/admin/reload").status == 200)
            #expect(try client.admin("GET", "/admin/status", token: TestToken.named("first")).status == 401)
            #expect(try client.admin("GET", "/admin/status", token: TestToken.named("second")).status == 200)

            // A rotation that goes wrong: the reload fails and says why, the last good token stays.
            try FileManager.default.removeItem(atPath: file)
            let broken = try client.admin("POST", "/admin/reload")
            #expect(broken.status == 422, "\(broken.dump)")
            #expect(broken.text.contains("admin token 'deployer' (token_file \(file)) cannot be read"), "\(broken.dump)")
            try Data("short\n".utf8).write(to: URL(fileURLWithPath: file))
            let weak = try client.admin("POST", "/admin/reload")
            #expect(weak.status == 422 && weak.text.contains("characters long"), "\(weak.dump)")
            #expect(try client.admin("GET", "/admin/status", token: TestToken.named("second")).status == 200)
        }

        @Test("the 11th wrong token in a minute gets 429 too_many_attempts with Retry-After, counted in /metrics")
        func wrongTokensAreSlowedDown() async throws {
            let server = try await InProcessServer(config: .minimal(routes: Self.routes))
            let client = try server.client()
            for attempt in 1...10 {
                let response = try client.admin("GET", "/admin/status", token: TestToken.named("guess-\(attempt)"))
                #expect(response.status == 401, "attempt \(attempt): \(response.dump)")
            }
            let refused = try client.admin("GET", "/admin/status", token: TestToken.named("guess-11"))
            #expect(refused.status == 429 && refused.errorCode == "too_many_attempts", "\(refused.dump)")
            let retryAfter = refused.header("Retry-After").flatMap { Int($0) }
            #expect(retryAfter.map { (1...60).contains($0) } == true, "\(refused.dump)")
            // The address is refused before its token is compared: a right one would otherwise
            // tell the guesser it is right.
            #expect(try client.admin("GET", "/admin/status").status == 429)
            // Nothing outside /admin is affected.
            #expect(try client.request("GET", "/me").status != 429)
            let metrics = try client.request("GET", "/metrics").text
            #expect(metrics.contains("switchboard_admin_auth_failures_total{reason=\"wrong_token\"} 10"), "\(metrics)")
            #expect(metrics.contains("switchboard_admin_auth_failures_total{reason=\"too_many_attempts\"} 2"), "\(metrics)")
        }
    }
}
