import Foundation
import SwitchboardTestSupport
import Synchronization
import Testing

extension IntegrationTests {
    /// Admin rules sent back as listed, and edits of one item in place (design.md §5):
    /// `PUT /admin/rules/{id}`, `PATCH /admin/rules/{id}`, `PUT /admin/routes/{id}`.
    @Suite("Admin edits in place over loopback")
    struct AdminEditTests {
        static func rule(_ id: String, target: String = "shopapp://me") -> String {
            #"{"id":"\#(id)","match":"^\#(id)://","target":"\#(target)"}"#
        }

        static let threeRules = #"{"rules":[\#(rule("a")),\#(rule("b")),\#(rule("c"))]}"#

        /// The admin rules `GET /admin/rules` lists, in order.
        private func adminRules(_ client: HTTPTestClient) throws -> [[String: Any]] {
            let listed = try client.admin("GET", "/admin/rules")
            #expect(listed.status == 200)
            return (listed.json["rules"] as? [[String: Any]] ?? []).filter { $0["source"] as? String == "admin" }
        }

        private func adminRuleIDs(_ client: HTTPTestClient) throws -> [String] {
            try adminRules(client).compactMap { $0["id"] as? String }
        }

        private func json(_ value: Any) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
        }

        @Test("the admin rules GET lists can be PUT back as they are; a config rule in a body is a 400")
        func rulesRoundTrip() async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            let batch =
                #"{"rules":[{"id":"r1","match":"^r1://","target":"shopapp://me","last":false,"when":{"platform":["ios"]}},"#
                + #"{"id":"r2","match":"^r2://","target":"shopapp://cart","examples":["r2://x"]}]}"#
            #expect(try client.admin("POST", "/admin/rules", json: batch).status == 201)
            let listed = try adminRules(client)
            #expect(listed.count == 2)
            let put = try client.admin("PUT", "/admin/rules", json: try json(["rules": listed]))
            #expect(put.status == 200, "\(put.dump)")
            #expect(put.etag == #""2""#)
            #expect(try json(try adminRules(client)) == (try json(listed)))
            // One listed rule can be POSTed as it is, too.
            var copy = listed[1]
            copy["id"] = "r3"
            #expect(try client.admin("POST", "/admin/rules", json: try json(copy)).status == 201)
            // A config rule, as listed, is refused: it lives in rewrites.yaml.
            let all = try client.admin("GET", "/admin/rules").json["rules"] as? [[String: Any]] ?? []
            let withConfig = try client.admin("PUT", "/admin/rules", json: try json(["rules": all]))
            #expect(withConfig.status == 400, "\(withConfig.dump)")
            #expect(withConfig.errorCode == "config_rule")
            #expect(withConfig.errorMessage.contains("rewrites.yaml"))
            let unknown = try client.admin("POST", "/admin/rules", json: #"{"id":"z","match":"^z://","target":"x","source":"elsewhere"}"#)
            #expect(unknown.status == 400)
            #expect(try client.admin("GET", "/admin/rules").json["version"] as? Int == 3)
        }

        @Test("PUT /admin/rules/{id} replaces one rule where it stands; errors change nothing; rollback restores it")
        func replaceRuleInPlace() async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            #expect(try client.admin("POST", "/admin/rules", json: Self.threeRules).status == 201)
            #expect(try client.resolve("b://x").json["rewrittenURL"] as? String == "shopapp://me")
            // The id may be left out.
            let replaced = try client.admin(
                "PUT", "/admin/rules/b", json: #"{"match":"^b://","target":"shopapp://cart"}"#, headers: [("If-Match", #""1""#)])
            #expect(replaced.status == 200, "\(replaced.dump)")
            #expect(replaced.etag == #""2""#)
            #expect(try adminRuleIDs(client) == ["a", "b", "c"])
            #expect(try client.resolve("b://x").json["rewrittenURL"] as? String == "shopapp://cart")
            // With the id and `source`, as listed.
            let listed = #"{"id":"b","match":"^b://","target":"shopapp://me","source":"admin"}"#
            #expect(try client.admin("PUT", "/admin/rules/b", json: listed).status == 200)

            let mismatch = try client.admin("PUT", "/admin/rules/b", json: Self.rule("c"))
            #expect(mismatch.status == 400)
            #expect(mismatch.errorCode == "id_mismatch")
            #expect(try client.admin("PUT", "/admin/rules/nope", json: Self.rule("nope")).status == 404)
            let config = try client.admin("PUT", "/admin/rules/goods-renamed", json: Self.rule("goods-renamed"))
            #expect(config.status == 409)
            #expect(config.errorCode == "config_rule")
            #expect(try client.admin("PUT", "/admin/rules/b", json: Self.rule("b"), headers: [("If-Match", #""1""#)]).status == 412)
            let invalid = try client.admin("PUT", "/admin/rules/b", json: #"{"match":"(","target":"x"}"#)
            #expect(invalid.status == 400)
            #expect(try client.admin("GET", "/admin/rules").json["version"] as? Int == 3)

            let history = try client.admin("GET", "/admin/history?limit=1").json["history"] as? [[String: Any]]
            #expect(history?.first?["action"] as? String == "rules.update")
            #expect(history?.first?["ids"] as? [String] == ["b"])
            #expect(try client.admin("POST", "/admin/rollback", json: #"{"version":2}"#).status == 200)
            #expect(try adminRuleIDs(client) == ["a", "b", "c"])
            #expect(try client.resolve("b://x").json["rewrittenURL"] as? String == "shopapp://cart")
            #expect(try client.admin("POST", "/admin/rollback", json: #"{"version":1}"#).status == 200)
            #expect(try client.resolve("b://x").json["rewrittenURL"] as? String == "shopapp://me")
        }

        @Test("PATCH /admin/rules/{id} moves a rule before or after another; errors change nothing; rollback undoes it")
        func moveRule() async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            #expect(try client.admin("POST", "/admin/rules", json: Self.threeRules).status == 201)
            let moved = try client.admin("PATCH", "/admin/rules/c", json: #"{"before":"a"}"#, headers: [("If-Match", #""1""#)])
            #expect(moved.status == 200, "\(moved.dump)")
            #expect(moved.etag == #""2""#)
            #expect(try adminRuleIDs(client) == ["c", "a", "b"])
            #expect(try client.admin("PATCH", "/admin/rules/c", json: #"{"after":"b"}"#).status == 200)
            #expect(try adminRuleIDs(client) == ["a", "b", "c"])
            #expect(try client.admin("PATCH", "/admin/rules/a", json: #"{"after":"b"}"#).status == 200)
            #expect(try adminRuleIDs(client) == ["b", "a", "c"])

            let refusals: [(path: String, body: String, status: Int)] = [
                ("/admin/rules/nope", #"{"before":"a"}"#, 404),
                ("/admin/rules/a", #"{"before":"nope"}"#, 404),
                ("/admin/rules/a", #"{"before":"b","after":"c"}"#, 400),
                ("/admin/rules/a", #"{}"#, 400),
                ("/admin/rules/a", #"{"before":"a"}"#, 400),
                ("/admin/rules/a", #"{"above":"b"}"#, 400),
                ("/admin/rules/goods-renamed", #"{"before":"a"}"#, 409),
                ("/admin/rules/a", #"{"before":"goods-renamed"}"#, 409),
            ]
            for refusal in refusals {
                let response = try client.admin("PATCH", refusal.path, json: refusal.body)
                #expect(response.status == refusal.status, "\(refusal.path) \(refusal.body): \(response.dump)")
            }
            for body in [#"{"before":"b","after":"c"}"#, #"{}"#] {
                let message = try client.admin("PATCH", "/admin/rules/a", json: body).errorMessage
                #expect(message.contains("give exactly one of 'before' and 'after'"), "\(body): \(message)")
            }
            #expect(try client.admin("PATCH", "/admin/rules/a", json: #"{"before":"b"}"#, headers: [("If-Match", #""1""#)]).status == 412)
            #expect(try adminRuleIDs(client) == ["b", "a", "c"])
            #expect(try client.admin("GET", "/admin/rules").json["version"] as? Int == 4)

            let history = try client.admin("GET", "/admin/history?limit=1").json["history"] as? [[String: Any]]
            #expect(history?.first?["action"] as? String == "rules.move")
            #expect(try client.admin("POST", "/admin/rollback", json: #"{"version":2}"#).status == 200)
            #expect(try adminRuleIDs(client) == ["c", "a", "b"])
            #expect(try client.admin("POST", "/admin/rollback", json: #"{"version":1}"#).status == 200)
            #expect(try adminRuleIDs(client) == ["a", "b", "c"])
        }

        @Test("?dry_run=1 on every admin change says what it would do and changes nothing: version, /resolve, state on disk")
        func dryRunChangesNothing() async throws {
            let config = try TestConfig.demo()
            let server = try await InProcessServer(config: config)
            let client = try server.client()
            #expect(try client.admin("POST", "/admin/rules", json: Self.threeRules).status == 201)
            let flash = #"{"id":"promo.flash","pattern":"/flash/:slot<int>","target":{"page":"P0"}}"#
            #expect(try client.admin("POST", "/admin/routes", json: flash).status == 201)
            let state = try Data(contentsOf: URL(fileURLWithPath: config.stateFile))
            let rules = try client.admin("GET", "/admin/rules").text
            let routes = try client.admin("GET", "/admin/routes").text
            let resolves = ["a://x", "b://x", "shopapp://flash/3", "d://x", "shopapp://flash2/3"]
            let answers = try resolves.map { try client.resolve($0).text }

            let cases: [(method: String, path: String, body: String?, added: [String], changed: [String], removed: [String])] = [
                ("POST", "/admin/rules", Self.rule("d"), ["d"], [], []),
                ("PUT", "/admin/rules", #"{"rules":[\#(Self.rule("a")),\#(Self.rule("e"))]}"#, ["e"], [], ["b", "c"]),
                ("PUT", "/admin/rules/b", #"{"match":"^b://","target":"shopapp://cart"}"#, [], ["b"], []),
                ("PATCH", "/admin/rules/c", #"{"before":"a"}"#, [], ["c"], []),
                ("DELETE", "/admin/rules/a", nil, [], [], ["a"]),
                ("POST", "/admin/routes", #"{"id":"flash2","pattern":"/flash2/:n","target":{}}"#, ["flash2"], [], []),
                ("PUT", "/admin/routes/promo.flash", #"{"pattern":"/flash/:slot<int>","target":{"page":"P1"}}"#, [], ["promo.flash"], []),
                ("DELETE", "/admin/routes/promo.flash", nil, [], [], ["promo.flash"]),
                ("POST", "/admin/rollback", #"{"version":0}"#, [], [], ["a", "b", "c", "promo.flash"]),
            ]
            for (index, item) in cases.enumerated() {
                let flag = index.isMultiple(of: 2) ? "1" : "true"
                let response = try client.admin(
                    item.method, item.path + "?dry_run=" + flag, json: item.body, headers: [("If-Match", #""2""#)])
                let name = "\(item.method) \(item.path)"
                #expect(response.status == 200, "\(name): \(response.dump)")
                #expect(response.etag == #""2""#, "\(name)")
                #expect(response.json["dryRun"] as? Bool == true, "\(name)")
                #expect(response.json["version"] as? Int == 2, "\(name)")
                #expect(response.json["wouldBeVersion"] as? Int == 3, "\(name)")
                #expect(response.json["added"] as? [String] == item.added, "\(name): \(response.text)")
                #expect(response.json["changed"] as? [String] == item.changed, "\(name): \(response.text)")
                #expect(response.json["removed"] as? [String] == item.removed, "\(name): \(response.text)")
            }
            // Refusals are the real change's.
            let refusals: [(method: String, path: String, body: String?, headers: [(String, String)], status: Int)] = [
                ("POST", "/admin/rules?dry_run=1", Self.rule("goods-renamed"), [], 409),
                ("POST", "/admin/rules?dry_run=1", #"{"id":"bad","match":"(","target":"x"}"#, [], 400),
                ("DELETE", "/admin/rules/nope?dry_run=1", nil, [], 404),
                ("DELETE", "/admin/rules/a?dry_run=1", nil, [("If-Match", #""1""#)], 412),
                ("POST", "/admin/rollback?dry_run=1", #"{"version":99}"#, [], 404),
                ("DELETE", "/admin/rules/a?dry_run=maybe", nil, [], 400),
                ("DELETE", "/admin/rules/a?dry_run=", nil, [], 400),
                // Given twice, neither value is taken: the last one would make a change.
                ("DELETE", "/admin/rules/a?dry_run=1&dry_run=0", nil, [], 400),
                ("POST", "/admin/rules?dry_run=1&dry_run=0", Self.rule("twice"), [], 400),
            ]
            for refusal in refusals {
                let response = try client.admin(refusal.method, refusal.path, json: refusal.body, headers: refusal.headers)
                #expect(response.status == refusal.status, "\(refusal.method) \(refusal.path): \(response.dump)")
            }
            #expect(try client.admin("GET", "/admin/rules").text == rules)
            #expect(try client.admin("GET", "/admin/routes").text == routes)
            #expect(try resolves.map { try client.resolve($0).text } == answers)
            #expect(try Data(contentsOf: URL(fileURLWithPath: config.stateFile)) == state)
            #expect(try client.admin("GET", "/admin/history").json["history"] as? [[String: Any]] != nil)
            #expect((try client.admin("GET", "/admin/history").json["history"] as? [[String: Any]])?.count == 2)
            // `0` and `false` make the change.
            #expect(try client.admin("DELETE", "/admin/rules/a?dry_run=0").status == 204)
            #expect(try client.admin("DELETE", "/admin/rules/b?dry_run=false").status == 204)
            #expect(try adminRuleIDs(client) == ["c"])
        }

        final class Hammer: Sendable {
            let stop = Atomic<Bool>(false)
            let resolved = Atomic<Int>(0)
            let failures = Mutex<[String]>([])
            let finished = Atomic<Bool>(false)
        }

        @Test("PUT /admin/routes/{id} swaps a route in one step: a client resolving it during 20 PUTs never gets a 404")
        func replaceRouteAtomically() async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            func route(_ page: String) -> String {
                #"{"module":"promo","pattern":"/flash/:slot<int>","target":{"page":"\#(page)"}}"#
            }
            #expect(try client.admin("POST", "/admin/routes", json: #"{"id":"promo.flash",\#(route("P0").dropFirst())"#).status == 201)
            let hammer = Hammer()
            let port = server.port
            let thread = Thread {
                defer { hammer.finished.store(true, ordering: .releasing) }
                do {
                    let resolver = try HTTPTestClient(port: port)
                    while !hammer.stop.load(ordering: .acquiring) {
                        let response = try resolver.resolve("shopapp://flash/3")
                        hammer.resolved.add(1, ordering: .relaxed)
                        if response.status != 200 { hammer.failures.withLock { $0.append(response.dump) } }
                    }
                } catch {
                    hammer.failures.withLock { $0.append("\(error)") }
                }
            }
            thread.start()
            for index in 1...20 {
                let response = try client.admin("PUT", "/admin/routes/promo.flash", json: route("P\(index)"))
                #expect(response.status == 200, "\(response.dump)")
                #expect(response.etag == "\"\(index + 1)\"")
            }
            // Some resolves after the last PUT, so the client really ran through the writes.
            let after = hammer.resolved.load(ordering: .relaxed)
            while hammer.resolved.load(ordering: .relaxed) < after + 10, hammer.failures.withLock({ $0.isEmpty }) {
                try await Task.sleep(for: .milliseconds(5))
            }
            hammer.stop.store(true, ordering: .releasing)
            while !hammer.finished.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(5)) }
            #expect(hammer.failures.withLock { $0 } == [])
            #expect(hammer.resolved.load(ordering: .relaxed) > 20)
            let target = try client.resolve("shopapp://flash/3").json["target"] as? [String: Any]
            #expect(target?["page"] as? String == "P20")

            let history = try client.admin("GET", "/admin/history?limit=1").json["history"] as? [[String: Any]]
            #expect(history?.first?["action"] as? String == "routes.update")
            #expect(history?.first?["ids"] as? [String] == ["promo.flash"])
            #expect(try client.admin("POST", "/admin/rollback", json: #"{"version":5}"#).status == 200)
            let restored = try client.resolve("shopapp://flash/3").json["target"] as? [String: Any]
            #expect(restored?["page"] as? String == "P4")

            let mismatch = try client.admin("PUT", "/admin/routes/promo.flash", json: #"{"id":"other","pattern":"/o","target":{}}"#)
            #expect(mismatch.status == 400)
            #expect(mismatch.errorCode == "id_mismatch")
            #expect(try client.admin("PUT", "/admin/routes/nope", json: route("X")).status == 404)
            let config = try client.admin("PUT", "/admin/routes/product.detail", json: route("X"))
            #expect(config.status == 409)
            #expect(config.errorCode == "config_route")
            #expect(try client.admin("PUT", "/admin/routes/promo.flash", json: route("X"), headers: [("If-Match", #""1""#)]).status == 412)
            #expect(try client.admin("GET", "/admin/routes").json["version"] as? Int == 22)
        }
    }
}
