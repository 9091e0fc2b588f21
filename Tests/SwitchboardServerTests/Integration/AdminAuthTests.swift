import Foundation
import SwitchboardTestSupport
import Testing

extension IntegrationTests {
    /// The admin bearer token (design.md §5): 403 while none is configured, 401 without or with a
    /// wrong one (with a `WWW-Authenticate` challenge), 200 with the right one.
    @Suite("Admin authorization over loopback")
    struct AdminAuthTests {
        static let endpoints = ["/admin/rules", "/admin/routes", "/admin/status"]

        @Test("no token configured: every admin call is 403, even with a header")
        func noTokenConfigured() async throws {
            let server = try await InProcessServer(config: .demo(), token: nil)
            let client = try server.client()
            for path in Self.endpoints {
                for token in [nil, TestToken.admin, ""] as [String?] {
                    let response = try client.admin("GET", path, token: token)
                    #expect(response.status == 403, "\(path) \(token ?? "-")")
                    #expect(response.errorCode == "admin_disabled")
                }
            }
            #expect(try client.admin("POST", "/admin/reload", token: TestToken.admin).status == 403)
            #expect(
                try client.admin("POST", "/admin/rules", token: TestToken.admin, json: #"{"id":"a","match":"a","target":"b"}"#).status
                    == 403)
            // Public endpoints are not affected.
            #expect(try client.resolve("shopapp://product/1").status == 200)
        }

        @Test("a token configured: 401 without or with a wrong token, 200 with the right one")
        func tokenConfigured() async throws {
            let secret = TestToken.named("s3cret")
            let server = try await InProcessServer(config: .demo(), token: secret)
            let client = try server.client()
            // Two wrong tokens per path and one more after: seven in all, under the ten an
            // address may send before it is refused.
            for path in Self.endpoints {
                let missing = try client.admin("GET", path, token: nil)
                #expect(missing.status == 401)
                #expect(missing.errorCode == "unauthorized")
                #expect(missing.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
                for wrong in [
                    [("Authorization", "Bearer \(secret.dropLast())")],
                    [("Authorization", "Bearer \(secret)2")], [("Authorization", "Basic czNjcmV0")], [("Authorization", secret)],
                    [("Authorization", "Bearer ")],
                ] {
                    let response = try client.admin("GET", path, token: nil, headers: wrong)
                    #expect(response.status == 401, "\(wrong)")
                    #expect(response.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
                }
                let ok = try client.admin("GET", path, token: secret)
                #expect(ok.status == 200, "\(ok.dump)")
                #expect(try client.admin("GET", path, token: nil, headers: [("authorization", "bearer \(secret)")]).status == 200)
            }
            // Nothing was changed by the refused calls.
            let refused = try client.admin("POST", "/admin/rules", token: "nope", json: #"{"id":"a","match":"a","target":"b"}"#)
            #expect(refused.status == 401)
            #expect(try client.admin("GET", "/admin/rules", token: secret).json["version"] as? Int == 0)
        }

        static let roleSettings = """
            admin_tokens:
              - { name: dashboard, token_env: TOKEN_DASHBOARD, role: read }
              - { name: deployer, token_env: TOKEN_DEPLOYER, role: write }
              - { name: alice, token_env: TOKEN_ALICE }
            """
        static let roleEnvironment = [
            "TOKEN_DASHBOARD": TestToken.named("dash"), "TOKEN_DEPLOYER": TestToken.named("deploy"),
            "TOKEN_ALICE": TestToken.named("alice"),
        ]
        static let rule = #"{"id":"a","match":"^shopapp://a$","target":"shopapp://me"}"#

        @Test("a read token reads every admin list; every change is 403 forbidden_role naming the role needed")
        func readTokenReadsOnly() async throws {
            let config = try TestConfig.minimal(
                routes: ["me.yaml": "module: me\nroutes: [{ id: me, pattern: /me }]\n"], settings: Self.roleSettings)
            let server = try await InProcessServer(config: config, environment: Self.roleEnvironment)
            let client = try server.client()
            for path in ["/admin/rules", "/admin/routes", "/admin/history", "/admin/status", "/admin/table"] {
                let response = try client.admin("GET", path, token: TestToken.named("dash"))
                #expect(response.status == 200, "\(path) \(response.dump)")
            }
            let changes: [(String, String, String?)] = [
                ("POST", "/admin/rules", Self.rule), ("PUT", "/admin/rules", #"{"rules":[]}"#), ("DELETE", "/admin/rules/a", nil),
                ("POST", "/admin/routes", #"{"id":"x","pattern":"/x","target":{}}"#), ("DELETE", "/admin/routes/x", nil),
                ("POST", "/admin/rollback", #"{"version":0}"#), ("POST", "/admin/reload", nil),
                ("PUT", "/admin/rules/a", Self.rule), ("PATCH", "/admin/rules/a", #"{"before":"b"}"#),
                ("PUT", "/admin/routes/x", #"{"id":"x","pattern":"/x","target":{}}"#),
                ("POST", "/admin/rules?dry_run=1", Self.rule),
            ]
            for (method, path, body) in changes {
                let refused = try client.admin(method, path, token: TestToken.named("dash"), json: body)
                #expect(refused.status == 403, "\(method) \(path) \(refused.dump)")
                #expect(refused.errorCode == "forbidden_role", "\(method) \(path)")
                #expect(refused.errorMessage == "this needs a token with role write; 'dashboard' has role read", "\(method) \(path)")
            }
            // Nothing changed; a write token (given or by default) may change and read.
            #expect(try client.admin("GET", "/admin/rules", token: TestToken.named("dash")).json["version"] as? Int == 0)
            #expect(try client.admin("POST", "/admin/rules", token: TestToken.named("deploy"), json: Self.rule).status == 201)
            #expect(try client.admin("DELETE", "/admin/rules/a", token: TestToken.named("alice")).status == 204)
            #expect(try client.admin("POST", "/admin/reload", token: TestToken.admin).status == 200)
            #expect(try client.admin("GET", "/admin/history", token: TestToken.named("alice")).status == 200)
        }

        @Test("every refusal names the role the call needs")
        func refusalsNameTheRole() async throws {
            let server = try await InProcessServer(config: .demo(), token: TestToken.named("s3cret"))
            let client = try server.client()
            for (method, path, role) in [
                ("GET", "/admin/rules", "read"), ("POST", "/admin/rules", "write"), ("DELETE", "/admin/routes/x", "write"),
                ("GET", "/admin/nothing", "read"), ("POST", "/admin/nothing", "write"),
            ] {
                for token in [nil, "wrong"] as [String?] {
                    let response = try client.admin(method, path, token: token)
                    #expect(response.status == 401, "\(method) \(path)")
                    #expect(
                        response.errorMessage.hasSuffix("this needs a token with role \(role)") == true,
                        "\(method) \(path) \(response.dump)")
                }
            }
            let disabled = try await InProcessServer(config: .demo(), token: nil)
            let refused = try disabled.client().admin("POST", "/admin/reload", token: TestToken.admin)
            #expect(refused.status == 403 && refused.errorCode == "admin_disabled")
            #expect(refused.errorMessage.hasSuffix("this needs a token with role write") == true, "\(refused.dump)")
        }

        @Test("a reload reads the tokens again: a rotated value or a new token_env applies, the old token is refused")
        func reloadRotatesTokens() async throws {
            let config = try TestConfig.minimal(
                routes: ["me.yaml": "module: me\nroutes: [{ id: me, pattern: /me }]\n"],
                settings: "admin_tokens: [{ name: bot, token_env: TOKEN_BOT_V1 }]")
            let server = try await InProcessServer(config: config, environment: ["TOKEN_BOT_V1": TestToken.named("bot-one")])
            let client = try server.client()
            #expect(try client.admin("GET", "/admin/status", token: TestToken.named("bot-one")).status == 200)

            // The admin token's value changes, and `token_env` points at another variable.
            server.environment.set("SWITCHBOARD_ADMIN_TOKEN", TestToken.named("t2"))
            server.environment.set("TOKEN_BOT_V2", TestToken.named("bot-two"))
            try config.writeSettings(
                try config.read("switchboard.yaml")
                    .replacingOccurrences(of: "TOKEN_BOT_V1 }", with: "TOKEN_BOT_V2, role: read }"))
            let reloaded = try client.admin("POST", "/admin/reload", token: TestToken.admin)
            #expect(reloaded.status == 200, "\(reloaded.dump)")

            for old in [TestToken.admin, TestToken.named("bot-one")] {
                #expect(try client.admin("GET", "/admin/status", token: old).status == 401, "\(old)")
            }
            let status = try client.admin("GET", "/admin/status", token: TestToken.named("bot-two"))
            #expect(status.status == 200, "\(status.dump)")
            let lastReload = status.json["lastReload"] as? [String: Any]
            #expect(lastReload?["restartRequired"] as? [String] == [], "\(status.dump)")
            #expect(try client.admin("POST", "/admin/reload", token: TestToken.named("bot-two")).errorCode == "forbidden_role")
            #expect(try client.admin("POST", "/admin/reload", token: TestToken.named("t2")).status == 200)
        }
    }
}
