import Foundation
import SwitchboardTestSupport
import Synchronization
import Testing

extension IntegrationTests {
    /// `GET|POST|PUT /admin/rules`, `DELETE /admin/rules/{id}` (design.md §4, §5): versions and
    /// ETags, all-or-nothing batches, conflicts, body errors, `If-Match`.
    @Suite("Admin rules over loopback")
    struct AdminRulesTests {
        static let promo = #"{"id":"promo","match":"^shopapp://p/([0-9]+)","target":"shopapp://product/$1"}"#

        /// `GET /admin/rules`, checked to be a 200.
        private func rules(_ client: HTTPTestClient) throws -> HTTPTestResponse {
            let response = try client.admin("GET", "/admin/rules")
            #expect(response.status == 200)
            return response
        }

        private func listedIDs(_ response: HTTPTestResponse) -> [String] {
            (response.json["rules"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        }

        private static let configRuleIDs = [
            "web-search-to-native", "legacy-item-page", "live-degraded-to-web", "campaign-to-venue", "help-in-webview",
            "goods-renamed", "deals-in-apps",
        ]

        @Test("POST one rule: 201, ETag \"1\", and the rule fires on /resolve")
        func postOneRule() async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            #expect(try client.resolve("shopapp://p/9").status == 404)
            let created = try client.admin("POST", "/admin/rules", json: Self.promo)
            #expect(created.status == 201, "\(created.dump)")
            #expect(created.etag == #""1""#)
            #expect(created.header("Content-Type") == "application/json; charset=utf-8")
            #expect(created.json["version"] as? Int == 1)
            let resolved = try client.resolve("shopapp://p/9")
            #expect(resolved.status == 200)
            #expect(resolved.json["ruleIds"] as? [String] == ["promo"])
            #expect(resolved.json["rewrittenURL"] as? String == "shopapp://product/9")
            #expect(resolved.json["routeId"] as? String == "product.detail")
            // Admin rules run before the config's: a `last` admin rule shadows goods-renamed.
            let shadow = #"{"id":"goods-first","match":"^shopapp://goods/([0-9]+)","target":"shopapp://item/$1"}"#
            #expect(try client.admin("POST", "/admin/rules", json: shadow).status == 201)
            let goods = try client.resolve("shopapp://goods/5")
            #expect(goods.json["ruleIds"] as? [String] == ["goods-first"])
            #expect(goods.json["routeId"] as? String == "product.detail.legacy")
        }

        @Test("POST a batch appends in order; GET lists admin rules, then config rules, with their source")
        func postBatchAndList() async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            #expect(try client.admin("POST", "/admin/rules", json: Self.promo).status == 201)
            let batch =
                #"{"rules":[{"id":"b1","match":"^x://1","target":"shopapp://me"},{"id":"b2","match":"^x://2","target":"shopapp://cart","last":false}]}"#
            let created = try client.admin("POST", "/admin/rules", json: batch)
            #expect(created.status == 201)
            #expect(created.etag == #""2""#)
            let listed = try rules(client)
            #expect(listed.etag == #""2""#)
            #expect(listed.json["version"] as? Int == 2)
            #expect(listedIDs(listed) == ["promo", "b1", "b2"] + Self.configRuleIDs)
            let entries = try #require(listed.json["rules"] as? [[String: Any]])
            #expect(entries.map { $0["source"] as? String } == Array(repeating: "admin", count: 3) + Array(repeating: "config", count: 7))
            #expect(entries[2]["last"] as? Bool == false)
            #expect(entries[1]["last"] as? Bool == true)
            #expect(entries[0]["match"] as? String == "^shopapp://p/([0-9]+)")
            #expect(entries[0]["target"] as? String == "shopapp://product/$1")
            #expect(Set(entries[0].keys) == ["id", "match", "target", "last", "source"])
            #expect(try client.resolve("x://2").json["ruleIds"] as? [String] == ["b2"])
        }

        @Test("PUT replaces every admin rule; PUT needs {\"rules\": [...]}")
        func putReplaces() async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            #expect(try client.admin("POST", "/admin/rules", json: Self.promo).status == 201)
            let replaced = try client.admin(
                "PUT", "/admin/rules", json: #"{"rules":[{"id":"only","match":"^x://","target":"shopapp://me"}]}"#)
            #expect(replaced.status == 200, "\(replaced.dump)")
            #expect(replaced.etag == #""2""#)
            #expect(listedIDs(try rules(client)) == ["only"] + Self.configRuleIDs)
            #expect(try client.resolve("shopapp://p/9").status == 404)
            #expect(try client.resolve("x://y").json["routeId"] as? String == "user.home")
            // Replacing with the same id as an old admin rule is fine (the old one goes).
            #expect(try client.admin("PUT", "/admin/rules", json: #"{"rules":[\#(Self.promo)]}"#).status == 200)
            let single = try client.admin("PUT", "/admin/rules", json: Self.promo)
            #expect(single.status == 400)
            #expect(try client.admin("PUT", "/admin/rules", json: #"{"rules":[]}"#).status == 200)
            #expect(listedIDs(try rules(client)) == Self.configRuleIDs)
            #expect(try rules(client).json["version"] as? Int == 4)
        }

        @Test("DELETE an admin rule: 204, then 404; a config rule: 409")
        func delete() async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            #expect(try client.admin("POST", "/admin/rules", json: Self.promo).status == 201)
            let deleted = try client.admin("DELETE", "/admin/rules/promo")
            #expect(deleted.status == 204)
            #expect(deleted.etag == #""2""#)
            #expect(deleted.body.isEmpty)
            #expect(try client.resolve("shopapp://p/9").status == 404)
            let again = try client.admin("DELETE", "/admin/rules/promo")
            #expect(again.status == 404)
            #expect(again.errorCode == "not_found")
            let config = try client.admin("DELETE", "/admin/rules/goods-renamed")
            #expect(config.status == 409)
            #expect(config.errorMessage.contains("goods-renamed"))
            #expect(try rules(client).json["version"] as? Int == 2)
            #expect(listedIDs(try rules(client)) == Self.configRuleIDs)
        }

        @Test("a batch with an invalid regex at index 2 is a 400 naming rule #2, and nothing changes")
        func invalidBatchChangesNothing() async throws {
            let config = try TestConfig.demo()
            let server = try await InProcessServer(config: config)
            let client = try server.client()
            #expect(try client.admin("POST", "/admin/rules", json: Self.promo).status == 201)
            let before = try rules(client)
            let stateBefore = try Data(contentsOf: URL(fileURLWithPath: config.stateFile))
            let batch =
                #"{"rules":[{"id":"ok1","match":"^a://","target":"shopapp://me"},{"id":"ok2","match":"^b://","target":"shopapp://me"},{"id":"bad","match":"^c://(","target":"shopapp://me"}]}"#
            for method in ["POST", "PUT"] {
                let refused = try client.admin(method, "/admin/rules", json: batch)
                #expect(refused.status == 400, "\(refused.dump)")
                #expect(refused.errorMessage.contains("rule #2"), "\(refused.errorMessage)")
                #expect(refused.errorMessage.contains("bad"))
                #expect(refused.etag == nil)
                let errors = refused.json["errors"] as? [[String: Any]] ?? []
                #expect(errors.map { $0["code"] as? String } == ["invalid_regex"], "\(refused.text)")
            }
            // Each entry of errors says what is wrong with its rule.
            let impossible = #"{"id":"w","match":"^a://x","target":"shopapp://me","when":{"appVersion":">=6 <5"}}"#
            let refusedCondition = try client.admin("POST", "/admin/rules", json: impossible)
            #expect(refusedCondition.status == 400)
            let conditionErrors = refusedCondition.json["errors"] as? [[String: Any]] ?? []
            #expect(conditionErrors.map { $0["code"] as? String } == ["invalid_condition"], "\(refusedCondition.text)")
            // A bad template (unknown variable, group out of range) is refused the same way.
            let badTemplate = #"{"rules":[{"id":"t","match":"^a://(x)","target":"shopapp://$2"}]}"#
            #expect(try client.admin("POST", "/admin/rules", json: badTemplate).status == 400)
            #expect(try client.admin("POST", "/admin/rules", json: #"{"id":"e","match":"","target":"shopapp://me"}"#).status == 400)
            let after = try rules(client)
            #expect(after.text == before.text)
            #expect(after.etag == #""1""#)
            #expect(try Data(contentsOf: URL(fileURLWithPath: config.stateFile)) == stateBefore)
            #expect(try client.resolve("a://x").status == 404)
        }

        @Test("a rule id already used is a 409 naming it; nothing changes")
        func duplicateIDs() async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            let configDuplicate = try client.admin(
                "POST", "/admin/rules", json: #"{"id":"goods-renamed","match":"^z://","target":"shopapp://me"}"#)
            #expect(configDuplicate.status == 409, "\(configDuplicate.dump)")
            #expect(configDuplicate.errorCode == "conflict")
            #expect(configDuplicate.errorMessage.contains("'goods-renamed'"))
            #expect(configDuplicate.errorMessage.contains("rewrites.yaml"))
            let put = try client.admin(
                "PUT", "/admin/rules", json: #"{"rules":[{"id":"legacy-item-page","match":"^z://","target":"shopapp://me"}]}"#)
            #expect(put.status == 409)
            #expect(try client.admin("POST", "/admin/rules", json: Self.promo).status == 201)
            let adminDuplicate = try client.admin("POST", "/admin/rules", json: Self.promo)
            #expect(adminDuplicate.status == 409)
            #expect(adminDuplicate.errorMessage.contains("'promo'"))
            let inBatch = try client.admin(
                "POST", "/admin/rules", json: #"{"rules":[{"id":"d","match":"a","target":"b"},{"id":"d","match":"a","target":"b"}]}"#)
            #expect(inBatch.status == 409)
            #expect(try rules(client).json["version"] as? Int == 1)
        }

        @Test(
            "an unknown field is a 400 naming it",
            arguments: [
                (#"{"id":"a","match":"^a://","target":"shopapp://me","lsat":false}"#, "lsat"),
                (#"{"rules":[{"id":"a","match":"^a://","target":"shopapp://me","priority":1}]}"#, "priority"),
                (#"{"rules":[],"dryRun":true}"#, "dryRun"),
            ])
        func unknownField(body: String, field: String) async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            let response = try client.admin("POST", "/admin/rules", json: body)
            #expect(response.status == 400)
            #expect(response.errorMessage.contains(field), "\(response.errorMessage)")
            #expect(try rules(client).json["version"] as? Int == 0)
        }

        @Test(
            "a malformed, empty or non-object body is a 400",
            arguments: [
                #"{"id":"a","match":"#, "", "[]", #""rule""#, "null", #"{"id":"a"}"#, #"{"id":1,"match":"a","target":"b"}"#,
                #"{"rules":{"id":"a"}}"#, "\u{FF}\u{FE}",
            ])
        func malformedBody(body: String) async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            let response = try client.admin("POST", "/admin/rules", json: body)
            #expect(response.status == 400, "\(response.dump)")
            #expect(response.header("Content-Type") == "application/json; charset=utf-8")
            #expect(response.errorCode != nil)
            #expect(try rules(client).json["version"] as? Int == 0)
        }

        @Test("a body over 1 MiB is a 413, announced by Content-Length; nothing changes")
        func bodyTooLarge() async throws {
            let server = try await InProcessServer(config: .demo())
            // The head alone: the answer comes before any body is sent (sending it all could
            // race with the server closing the connection after its 413).
            let client = try server.client()
            try client.send(
                "POST /admin/rules HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(TestToken.admin)\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(1024 * 1024 + 1)\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 413)
            #expect(response.errorCode == "body_too_large")
            #expect(try client.waitForClose())
            #expect(try rules(server.client()).json["version"] as? Int == 0)
            // Exactly 1 MiB is accepted.
            let padded = #"{"id":"big","match":"^a://","target":"shopapp://me""#
            let exact = padded + String(repeating: " ", count: 1024 * 1024 - padded.utf8.count - 1) + "}"
            #expect(exact.utf8.count == 1024 * 1024)
            #expect(try server.client().admin("POST", "/admin/rules", json: exact).status == 201)
        }

        @Test("If-Match: the current ETag is accepted, a stale one is a 412 and nothing changes")
        func ifMatch() async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            let first = try client.admin("POST", "/admin/rules", json: Self.promo, headers: [("If-Match", #""0""#)])
            #expect(first.status == 201)
            let etag = try #require(first.etag)
            let stale = try client.admin(
                "POST", "/admin/rules", json: #"{"id":"x","match":"^x://","target":"shopapp://me"}"#, headers: [("If-Match", #""0""#)])
            #expect(stale.status == 412)
            #expect(stale.errorCode == "version_mismatch")
            #expect(try client.admin("DELETE", "/admin/rules/promo", headers: [("If-Match", #""7""#)]).status == 412)
            #expect(try client.admin("PUT", "/admin/rules", json: #"{"rules":[]}"#, headers: [("If-Match", "garbage")]).status == 412)
            #expect(listedIDs(try rules(client)).first == "promo")
            #expect(try rules(client).etag == etag)
            let put = try client.admin("PUT", "/admin/rules", json: #"{"rules":[]}"#, headers: [("If-Match", etag)])
            #expect(put.status == 200)
            #expect(try client.admin("POST", "/admin/rules", json: Self.promo, headers: [("If-Match", #"W/"2""#)]).status == 201)
            #expect(try client.admin("DELETE", "/admin/rules/promo", headers: [("If-Match", "*")]).status == 204)
            #expect(try rules(client).etag == #""4""#)
        }

        @Test("a change that cannot be persisted is a 503 persistence_failed and is not applied")
        func persistenceFailure() async throws {
            let config = try TestConfig.demo()
            // data_dir under a regular file: it can never be created, not even by root.
            let blocker = config.root.path + "/blocker"
            try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
            let settings = try config.read("switchboard.yaml")
                .replacingOccurrences(of: "data_dir: \"\(config.dataDirectory)\"", with: "data_dir: \"\(blocker)/data\"")
            try config.write("switchboard.yaml", settings)
            let server = try await InProcessServer(config: config)
            let client = try server.client()
            let refused = try client.admin("POST", "/admin/rules", json: Self.promo)
            #expect(refused.status == 503, "\(refused.dump)")
            #expect(refused.errorCode == "persistence_failed")
            #expect(refused.etag == nil)
            #expect(try client.resolve("shopapp://p/9").status == 404)
            #expect(try rules(client).json["version"] as? Int == 0)
            #expect(try client.admin("POST", "/admin/routes", json: #"{"id":"x","pattern":"/x","target":{}}"#).status == 503)
            #expect(try client.resolve("shopapp://x").status == 404)
        }

        @Test("two concurrent writers with the same If-Match: exactly one wins, the other gets 412")
        func concurrentWriters() async throws {
            let server = try await InProcessServer(config: .demo())
            let port = server.port
            for round in 0..<5 {
                let version = try rules(server.client()).json["version"] as? Int ?? -1
                #expect(version == round)
                let statuses = Mutex<[Int]>([])
                let connected = Atomic<Int>(0)
                let bodies = (0..<2).map { #"{"id":"w\#(round)-\#($0)","match":"^w\#(round)-\#($0)://","target":"shopapp://me"}"# }
                // Both connect, then send at the same moment.
                let threads = (0..<2).map { index in
                    Thread {
                        let client = try? HTTPTestClient(port: port)
                        connected.add(1, ordering: .acquiringAndReleasing)
                        while connected.load(ordering: .acquiring) < 2 {}
                        let status =
                            (try? client?.admin(
                                "POST", "/admin/rules", json: bodies[index], headers: [("If-Match", "\"\(version)\"")]
                            ).status) ?? -1
                        statuses.withLock { $0.append(status) }
                    }
                }
                threads.forEach { $0.start() }
                #expect(try await eventually(timeout: .seconds(10)) { statuses.withLock { $0.count } == 2 })
                #expect(statuses.withLock { $0.sorted() } == [201, 412], "round \(round)")
            }
            let ids = listedIDs(try rules(server.client())).filter { $0.range(of: #"^w[0-9]-[01]$"#, options: .regularExpression) != nil }
            #expect(ids.count == 5)
        }

        @Test("with max_admin_rules lowered below the rules there are, rules can still be deleted and edited, not added")
        func loweredLimit() async throws {
            let config = try TestConfig.demo()
            let server = try await InProcessServer(config: config)
            let client = try server.client()
            let three = (0..<3).map { #"{"id":"r\#($0)","match":"^shopapp://r\#($0)$","target":"shopapp://product/\#($0)"}"# }
            #expect(try client.admin("POST", "/admin/rules", json: #"{"rules":[\#(three.joined(separator: ","))]}"#).status == 201)
            try config.write("switchboard.yaml", try config.read("switchboard.yaml") + "limits: { max_admin_rules: 1 }\n")
            #expect(try client.admin("POST", "/admin/reload").status == 200)
            let edited = try client.admin("PUT", "/admin/rules/r1", json: #"{"match":"^shopapp://r1b$","target":"shopapp://product/1"}"#)
            #expect(edited.status == 200, "\(edited.dump)")
            #expect(try client.admin("PATCH", "/admin/rules/r2", json: #"{"before":"r0"}"#).status == 200)
            #expect(try client.admin("DELETE", "/admin/rules/r0").status == 204)
            let added = try client.admin("POST", "/admin/rules", json: Self.promo)
            #expect(added.status == 422)
            #expect(added.errorCode == "limit_exceeded")
            #expect(listedIDs(try rules(client)).prefix(2) == ["r2", "r1"])
        }
    }
}
