import Foundation
import SwitchboardTestSupport
import Testing

extension IntegrationTests {
    /// `GET /admin/history`, `POST /admin/rollback` and named admin tokens: every change is
    /// recorded with who made it, bounded, persisted, and any kept version can be restored.
    @Suite("Admin history and rollback over loopback")
    struct AdminHistoryTests {
        static let settings = """
            admin_tokens:
              - { name: alice, token_env: TOKEN_ALICE }
              - { name: deploy-bot, token_env: TOKEN_BOT }
              - { name: nobody, token_env: TOKEN_UNSET }
            history_limit: 3
            """
        static let environment = ["TOKEN_ALICE": TestToken.named("alice"), "TOKEN_BOT": TestToken.named("bot")]

        static func rule(_ id: String, to target: String = "shopapp://me") -> String {
            #"{"id":"\#(id)","match":"^shopapp://\#(id)$","target":"\#(target)"}"#
        }

        private func entries(_ client: HTTPTestClient, query: String = "") throws -> [[String: Any]] {
            let response = try client.admin("GET", "/admin/history" + query)
            #expect(response.status == 200, "\(response.dump)")
            return response.json["history"] as? [[String: Any]] ?? []
        }

        @Test("history lists each change newest first, with the token's name, action and ids")
        func historyNamesWhoChangedWhat() async throws {
            let config = try TestConfig.minimal(
                routes: ["me.yaml": "module: me\nroutes: [{ id: me, pattern: /me }]\n"], settings: Self.settings)
            let server = try await InProcessServer(config: config, environment: Self.environment)
            let client = try server.client()
            #expect(try client.admin("POST", "/admin/rules", token: TestToken.named("alice"), json: Self.rule("one")).status == 201)
            #expect(
                try client.admin(
                    "POST", "/admin/routes", token: TestToken.named("bot"), json: #"{"id":"flash","pattern":"/flash","target":{}}"#
                )
                .status == 201)
            #expect(try client.admin("DELETE", "/admin/rules/one", token: TestToken.admin).status == 204)
            // A token whose variable is unset is not accepted.
            #expect(try client.admin("GET", "/admin/history", token: "").status == 401)

            let history = try entries(client)
            #expect(history.map { $0["version"] as? Int } == [3, 2, 1])
            #expect(history.map { $0["token"] as? String } == ["admin", "deploy-bot", "alice"])
            #expect(history.map { $0["action"] as? String } == ["rules.delete", "routes.add", "rules.add"])
            #expect(history.map { $0["ids"] as? [String] } == [["one"], ["flash"], ["one"]])
            #expect(history.first?["rules"] as? Int == 0 && history.first?["routes"] as? Int == 1)
            let time = try #require(history.first?["time"] as? String)
            #expect(ISO8601DateFormatter().date(from: String(time.prefix(19)) + "Z") != nil, "\(time)")
            #expect(try entries(client, query: "?limit=1").count == 1)
            #expect(try client.admin("GET", "/admin/history?limit=0").status == 400)
        }

        @Test("rollback restores a version's rules and routes as a new version; If-Match is honoured")
        func rollbackRestores() async throws {
            let config = try TestConfig.demo()
            let server = try await InProcessServer(config: config)
            let client = try server.client()
            #expect(try client.admin("POST", "/admin/rules", json: Self.rule("sale", to: "shopapp://venue/sale")).status == 201)  // v1
            #expect(
                try client.admin("PUT", "/admin/rules", json: #"{"rules":[\#(Self.rule("sale", to: "shopapp://venue/other"))]}"#).status
                    == 200)  // v2
            #expect(try client.resolve("shopapp://sale").json["rewrittenURL"] as? String == "shopapp://venue/other")

            #expect(try client.admin("POST", "/admin/rollback", json: #"{"version":1}"#, headers: [("If-Match", #""1""#)]).status == 412)
            let rolled = try client.admin("POST", "/admin/rollback", json: #"{"version":1}"#, headers: [("If-Match", #""2""#)])
            #expect(rolled.status == 200, "\(rolled.dump)")
            #expect(rolled.etag == #""3""#)
            #expect(try client.resolve("shopapp://sale").json["rewrittenURL"] as? String == "shopapp://venue/sale")
            let latest = try #require(try entries(client).first)
            #expect(latest["action"] as? String == "rollback" && latest["rollbackTo"] as? Int == 1)
            #expect(latest["ids"] as? [String] == ["sale"])

            // Version 0 is the empty state; an unknown version is a 404 and changes nothing.
            #expect(try client.admin("POST", "/admin/rollback", json: #"{"version":0}"#).status == 200)
            #expect(try client.resolve("shopapp://sale").status == 404)
            let unknown = try client.admin("POST", "/admin/rollback", json: #"{"version":42}"#)
            #expect(unknown.status == 404)
            #expect(try client.admin("GET", "/admin/rules").etag == #""4""#)
            for body in [#"{}"#, #"{"version":-1}"#, #"{"version":1,"extra":true}"#, #"[1]"#, "not json"] {
                #expect(try client.admin("POST", "/admin/rollback", json: body).status == 400, "\(body)")
            }
        }

        @Test("the history keeps history_limit entries; older versions cannot be restored")
        func historyIsBounded() async throws {
            let config = try TestConfig.minimal(
                routes: ["me.yaml": "module: me\nroutes: [{ id: me, pattern: /me }]\n"], settings: Self.settings)
            let server = try await InProcessServer(config: config, environment: Self.environment)
            let client = try server.client()
            for index in 1...5 {
                let rule = Self.rule("r\(index)")
                #expect(try client.admin("PUT", "/admin/rules", json: #"{"rules":[\#(rule)]}"#).status == 200)
            }
            #expect(try entries(client).map { $0["version"] as? Int } == [5, 4, 3])
            #expect(try client.admin("POST", "/admin/rollback", json: #"{"version":2}"#).status == 404)
            #expect(try client.admin("POST", "/admin/rollback", json: #"{"version":3}"#).status == 200)
            #expect(try client.resolve("shopapp://r3").json["ruleIds"] as? [String] == ["r3"])
        }

        @Test("after kill -9, the history answers as before and a rollback restores exactly the rules and routes of then")
        func historyAndRollbackAreTheSameAfterARestart() async throws {
            let config = try TestConfig.demo()
            let first = try ServerProcess(config: config, logName: "first.log")
            try await first.waitUntilListening()
            let client = try first.client()
            #expect(try client.admin("POST", "/admin/rules", json: Self.rule("one")).status == 201)  // v1
            #expect(
                try client.admin("POST", "/admin/routes", json: #"{"id":"flash","pattern":"/flash","target":{"z":1,"a":2}}"#).status == 201)
            #expect(try client.admin("POST", "/admin/rules", json: Self.rule("two")).status == 201)  // v3
            let atThree = try client.admin("GET", "/admin/rules").text
            let routesAtThree = try client.admin("GET", "/admin/routes").text
            #expect(try client.admin("PUT", "/admin/rules", json: #"{"rules":[\#(Self.rule("three"))]}"#).status == 200)  // v4
            #expect(try client.admin("DELETE", "/admin/routes/flash").status == 204)  // v5
            #expect(try client.admin("POST", "/admin/rollback", json: #"{"version":2}"#).status == 200)  // v6
            #expect(try client.admin("DELETE", "/admin/rules/one").status == 204)  // v7
            let history = try client.admin("GET", "/admin/history").text
            first.send(SIGKILL)
            _ = try await first.waitForExit()

            let second = try ServerProcess(config: config, logName: "second.log")
            try await second.waitUntilListening()
            let again = try second.client()
            #expect(try again.admin("GET", "/admin/history").text == history)
            let rolled = try again.admin("POST", "/admin/rollback", json: #"{"version":3}"#)
            #expect(rolled.status == 200 && rolled.etag == #""8""#, "\(rolled.dump)")
            #expect(try again.admin("GET", "/admin/rules").text == atThree.replacingOccurrences(of: #""version":3"#, with: #""version":8"#))
            #expect(
                try again.admin("GET", "/admin/routes").text
                    == routesAtThree.replacingOccurrences(of: #""version":3"#, with: #""version":8"#))
            #expect(try again.resolve("shopapp://flash").json["target"] as? [String: Int] == ["z": 1, "a": 2])
        }

        @Test("the history survives kill -9 right after a 201")
        func historySurvivesKill9() async throws {
            let config = try TestConfig.demo()
            try config.writeSettings(try config.read("switchboard.yaml") + "\nadmin_tokens: [{ name: alice, token_env: TOKEN_ALICE }]\n")
            let first = try ServerProcess(config: config, environment: Self.environment, logName: "first.log")
            try await first.waitUntilListening()
            let client = try first.client()
            #expect(try client.admin("POST", "/admin/rules", token: TestToken.named("alice"), json: Self.rule("kept")).status == 201)
            first.send(SIGKILL)
            _ = try await first.waitForExit()

            let second = try ServerProcess(config: config, environment: Self.environment, logName: "second.log")
            try await second.waitUntilListening()
            let history = try entries(try second.client())
            #expect(history.count == 1)
            #expect(history.first?["token"] as? String == "alice" && history.first?["ids"] as? [String] == ["kept"])
            #expect(try second.client().admin("POST", "/admin/rollback", json: #"{"version":0}"#).status == 200)
        }
    }
}
