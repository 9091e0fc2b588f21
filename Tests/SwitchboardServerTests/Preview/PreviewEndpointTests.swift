import Foundation
import SwitchboardTestSupport
import Testing

extension IntegrationTests {
    /// `POST /admin/preview` over loopback: a write replayed against the traffic sample,
    /// changing nothing (design.md §9).
    @Suite("POST /admin/preview over loopback")
    struct PreviewEndpointTests {
        /// The demo config with `traffic_sample: sample` (every request), a read token (`v`) and
        /// `extra` settings.
        static func server(sample: String = "{ every: 1 }", _ extra: String = "") async throws -> InProcessServer {
            let config = try TestConfig.demo()
            let demo = try String(contentsOfFile: Repository.demoConfig.path + "/switchboard.yaml", encoding: .utf8)
            try config.writeSettings(
                demo + "\ntraffic_sample: \(sample)\nadmin_tokens: [{ name: viewer, token_env: TOKEN_VIEWER, role: read }]\n"
                    + extra)
            return try await InProcessServer(config: config, environment: ["TOKEN_VIEWER": TestToken.named("viewer")])
        }

        /// A preview body: the write as it would be sent.
        static func preview(_ method: String, _ path: String, _ body: String? = nil) -> String {
            #"{"method":"\#(method)","path":"\#(path)""# + (body.map { #","body":\#($0)"# } ?? "") + "}"
        }

        /// The series a preview must leave alone: what resolving counts and the admin version.
        static func resolveSeries(_ client: HTTPTestClient) throws -> [Substring] {
            let prefixes = [
                "switchboard_route_hits_total", "switchboard_rule_hits_total", "switchboard_admin_version",
                "switchboard_resolve_cache_requests_total", "switchboard_traffic_sample_",
            ]
            let text = try client.request("GET", "/metrics").text
            return text.split(separator: "\n").filter { line in prefixes.contains { line.hasPrefix($0) } }
        }

        /// `value` as compact JSON with sorted keys, to compare decoded members.
        static func text(_ value: Any?) -> String {
            guard let value, let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]) else {
                return "nil"
            }
            return String(decoding: data, as: UTF8.self)
        }

        static let double11 = #"{"id":"double11","match":"^shopapp://product/([0-9]+)$","target":"shopapp://venue/double11"}"#

        @Test("an added rule: the traffic it captures, grouped, with examples, and nothing changes")
        func addedRule() async throws {
            let server = try await Self.server()
            let client = try server.client()
            // 4 requests the rule captures (two of them answered from the resolve cache), 4 it does not.
            for _ in 0..<3 { #expect(try client.resolve("shopapp://product/42", extraQuery: "&platform=ios").status == 200) }
            #expect(try client.resolve("shopapp://product/7").status == 200)
            #expect(try client.resolve("shopapp://cart").status == 200)
            #expect(try client.resolve("https://shop.example.com/item.html?ref=mail&id=42").status == 200)
            #expect(try client.resolve("shopapp://nowhere/x").status == 404)
            #expect(try client.resolve("shopapp://product/42", extraQuery: "&explain=1").status == 200)
            let metricsBefore = try Self.resolveSeries(client)

            let response = try client.admin("POST", "/admin/preview", json: Self.preview("POST", "/admin/rules", Self.double11))
            #expect(response.status == 200, "\(response.dump)")
            #expect(response.etag == #""0""#)
            let body = response.json
            #expect(body["version"] as? Int == 0)
            #expect((body["change"] as? [String: Any])?["added"] as? [String] == ["double11"])
            let sample = try #require(body["sample"] as? [String: Any])
            // The explain request is not sampled.
            #expect(sample["urls"] as? Int == 7 && sample["distinct"] as? Int == 5 && sample["changed"] as? Int == 4, "\(sample)")
            #expect(sample["elapsedMs"] is Double || sample["elapsedMs"] is Int)
            let groups = try #require(body["groups"] as? [[String: Any]])
            #expect(groups.count == 1)
            let group = try #require(groups.first)
            #expect(Self.text(group["before"]) == #"{"route":"product.detail","status":200}"#)
            #expect(Self.text(group["after"]) == #"{"route":"marketing.venue","status":200}"#)
            #expect(group["rules"] as? [String] == ["double11"] && group["count"] as? Int == 4)
            let examples = try #require(group["examples"] as? [[String: Any]])
            #expect(examples.map { $0["url"] as? String } == ["shopapp://product/42", "shopapp://product/7"])
            #expect(examples.first?["platform"] as? String == "ios")
            let before = try #require(examples.first?["before"] as? [String: Any])
            let after = try #require(examples.first?["after"] as? [String: Any])
            #expect(before["routeId"] as? String == "product.detail" && before["matched"] as? Bool == true)
            #expect(after["routeId"] as? String == "marketing.venue" && after["rewrittenURL"] as? String == "shopapp://venue/double11")
            #expect(Self.text(body["rules"]) == #"[{"count":4,"id":"double11"}]"#)
            #expect((body["newlyFailing"] as? [String: Any])?["count"] as? Int == 0)
            #expect((body["newlyUnmatched"] as? [String: Any])?["count"] as? Int == 0)

            // Nothing changed: version, history, answers, store, resolve metrics, the sample.
            let rules = try client.admin("GET", "/admin/rules")
            #expect(rules.json["version"] as? Int == 0 && rules.etag == #""0""#)
            #expect((try client.admin("GET", "/admin/history").json["history"] as? [Any])?.isEmpty == true)
            #expect(!FileManager.default.fileExists(atPath: server.config.stateFile))
            #expect(try Self.resolveSeries(client) == metricsBefore)
            #expect(try client.resolve("shopapp://product/42").json["routeId"] as? String == "product.detail")
            // If-Match naming the current version is honoured as the write would.
            let matching = try client.admin(
                "POST", "/admin/preview", json: Self.preview("POST", "/admin/rules", Self.double11), headers: [("If-Match", #""0""#)])
            // (The resolve just above was sampled too: one more request changes.)
            #expect(matching.status == 200 && (matching.json["sample"] as? [String: Any])?["changed"] as? Int == 5)
            // With examples=1, one example per group.
            let one = try client.admin("POST", "/admin/preview?examples=1", json: Self.preview("POST", "/admin/rules", Self.double11))
            #expect(((one.json["groups"] as? [[String: Any]])?.first?["examples"] as? [Any])?.count == 1)
            // Applied, the answers change as previewed.
            #expect(try client.admin("POST", "/admin/rules", json: Self.double11).status == 201)
            #expect(try client.resolve("shopapp://product/7").json["routeId"] as? String == "marketing.venue")
        }

        @Test("a deleted route and a rollback: the URLs it matched are newly unmatched")
        func deletedRouteAndRollback() async throws {
            let server = try await Self.server()
            let client = try server.client()
            let route = #"{"id":"promo.code","pattern":"/promo/:code","target":{"page":"Promo"}}"#
            #expect(try client.admin("POST", "/admin/routes", json: route).status == 201)
            for code in ["a", "b", "a"] { #expect(try client.resolve("shopapp://promo/\(code)").status == 200) }
            #expect(try client.resolve("shopapp://cart").status == 200)

            for (write, removed) in [
                (Self.preview("DELETE", "/admin/routes/promo.code"), ["promo.code"]),
                (Self.preview("POST", "/admin/rollback", #"{"version":0}"#), ["promo.code"]),
            ] {
                let response = try client.admin("POST", "/admin/preview", token: TestToken.named("viewer"), json: write)
                #expect(response.status == 200, "\(response.dump)")
                let body = response.json
                #expect(body["version"] as? Int == 1)
                #expect((body["change"] as? [String: Any])?["removed"] as? [String] == removed)
                let unmatched = try #require(body["newlyUnmatched"] as? [String: Any])
                #expect(unmatched["count"] as? Int == 3)
                let examples = try #require(unmatched["examples"] as? [[String: Any]])
                #expect(examples.map { $0["url"] as? String } == ["shopapp://promo/a", "shopapp://promo/b"])
                #expect((examples.first?["after"] as? [String: Any])?["matched"] as? Bool == false)
                let groups = try #require(body["groups"] as? [[String: Any]])
                #expect(groups.count == 1)
                // No route after: `route` is left out.
                #expect(Self.text(groups.first?["after"]) == #"{"status":404}"#)
                #expect(groups.first?["rules"] as? [String] == [])
            }
            #expect(try client.resolve("shopapp://promo/a").status == 200)
            #expect(try client.admin("GET", "/admin/routes").json["version"] as? Int == 1)
        }

        @Test("a reload candidate: the directory as it is; a broken config is the reload's own 422")
        func reload() async throws {
            let server = try await Self.server()
            let client = try server.client()
            #expect(try client.resolve("shopapp://cart").status == 200)
            let same = try client.admin("POST", "/admin/preview", json: Self.preview("POST", "/admin/reload"))
            #expect(same.status == 200, "\(same.dump)")
            #expect((same.json["sample"] as? [String: Any])?["changed"] as? Int == 0)
            #expect((same.json["groups"] as? [Any])?.isEmpty == true)
            #expect(same.json["change"] as? [String: [String]] == ["added": [], "changed": [], "removed": []])
            // A previewed reload is not a reload: no status, no count.
            let status = try client.admin("GET", "/admin/status").json["lastReload"] as? [String: Any]
            #expect(status?["trigger"] as? String == "startup", "\(status ?? [:])")
            let metrics = try client.request("GET", "/metrics").text
            #expect(metricValue(metrics, #"switchboard_reloads_total{result="ok"}"#) == 0)

            try server.config.write("routes.d/broken.yaml", "module: broken\nroutes: [{ id: b, patern: /b }]\n")
            let preview = try client.admin("POST", "/admin/preview", json: Self.preview("POST", "/admin/reload"))
            let reload = try client.admin("POST", "/admin/reload")
            #expect(preview.status == 422 && reload.status == 422, "\(preview.dump)")
            #expect(preview.errorCode == "invalid_config" && preview.errorCode == reload.errorCode)
            #expect(preview.errorMessage == reload.errorMessage)
            #expect(preview.json["errors"] as? [[String: String]] == reload.json["errors"] as? [[String: String]])
        }

        @Test("a write's refusals are the preview's: the same status, code, message and errors")
        func sameRefusals() async throws {
            let server = try await Self.server("limits: { max_admin_rules: 2 }\n")
            let client = try server.client()
            #expect(try client.admin("POST", "/admin/rules", json: #"{"id":"a","match":"^a://","target":"shopapp://cart"}"#).status == 201)
            let rule = { (id: String) in #"{"id":"\#(id)","match":"^\#(id)://","target":"shopapp://cart"}"# }
            let cases: [(method: String, path: String, body: String?, ifMatch: String?, status: Int)] = [
                ("POST", "/admin/rules", #"{"id":"bad","match":"(","target":"shopapp://cart"}"#, nil, 400),
                ("POST", "/admin/rules", #"{"id":"x","match":"^x://"}"#, nil, 400),
                ("POST", "/admin/rules", nil, nil, 400),
                ("POST", "/admin/rules", rule("web-search-to-native"), nil, 409),
                ("POST", "/admin/rules", #"{"rules":[\#(rule("b")),\#(rule("c"))]}"#, nil, 422),
                ("POST", "/admin/rules", rule("b"), #""7""#, 412),
                ("POST", "/admin/rules", rule("b"), "junk", 412),
                ("PUT", "/admin/rules", rule("b"), nil, 400),
                ("PUT", "/admin/rules/a", rule("b"), nil, 400),
                ("PUT", "/admin/rules/nope", rule("nope"), nil, 404),
                ("PATCH", "/admin/rules/a", "{}", nil, 400),
                ("PATCH", "/admin/rules/a", #"{"before":"web-search-to-native"}"#, nil, 409),
                ("DELETE", "/admin/rules/nope", nil, nil, 404),
                ("DELETE", "/admin/rules/web-search-to-native", nil, nil, 409),
                ("POST", "/admin/routes", #"{"id":"product.detail","pattern":"/elsewhere","target":{}}"#, nil, 409),
                ("PUT", "/admin/routes/product.detail", #"{"pattern":"/elsewhere","target":{}}"#, nil, 409),
                ("DELETE", "/admin/routes/nope", nil, nil, 404),
                ("POST", "/admin/rollback", #"{"version":99}"#, nil, 404),
                ("POST", "/admin/rollback", #"{"version":-1}"#, nil, 400),
                ("POST", "/admin/rollback", #"{"version":1.5}"#, nil, 400),
            ]
            for item in cases {
                let headers = item.ifMatch.map { [("If-Match", $0)] } ?? []
                let preview = try client.admin(
                    "POST", "/admin/preview", json: Self.preview(item.method, item.path, item.body), headers: headers)
                let write = try client.admin(item.method, item.path, json: item.body, headers: headers)
                let label = "\(item.method) \(item.path) \(item.body ?? "")"
                #expect(write.status == item.status, "\(label): \(write.dump)")
                #expect(preview.status == write.status, "\(label): \(preview.dump)")
                #expect(preview.errorCode == write.errorCode && preview.errorMessage == write.errorMessage, "\(label): \(preview.dump)")
                #expect(preview.json["errors"] as? [[String: String]] == write.json["errors"] as? [[String: String]], "\(label)")
            }
            #expect(try client.admin("GET", "/admin/rules").json["version"] as? Int == 1)
        }

        @Test("its own refusals: not a write, a body where none is taken, examples, unknown keys, tokens")
        func ownRefusals() async throws {
            let server = try await Self.server()
            let client = try server.client()
            for (json, query) in [
                (Self.preview("GET", "/admin/rules"), ""),
                (Self.preview("POST", "/admin/status"), ""),
                (Self.preview("POST", "/admin/rules/a"), ""),
                (Self.preview("DELETE", "/admin/rules"), ""),
                (Self.preview("POST", "/admin/rules?dry_run=1", Self.double11), ""),
                (Self.preview("DELETE", "/admin/rules/a", "{}"), ""),
                (Self.preview("POST", "/admin/reload", "{}"), ""),
                (#"{"method":"POST","path":"/admin/rules","body":{},"extra":1}"#, ""),
                (#"{"path":"/admin/rules"}"#, ""),
            ] {
                let response = try client.admin("POST", "/admin/preview" + query, json: json)
                #expect(response.status == 400 && response.errorCode == "invalid_body", "\(json): \(response.dump)")
            }
            for examples in ["0", "51", "x"] {
                let response = try client.admin(
                    "POST", "/admin/preview?examples=\(examples)", json: Self.preview("POST", "/admin/rules", Self.double11))
                #expect(response.status == 400 && response.errorCode == "invalid_parameter", "\(response.dump)")
            }
            #expect(try client.admin("POST", "/admin/preview", token: nil, json: Self.preview("POST", "/admin/reload")).status == 401)
            #expect(try client.admin("POST", "/admin/preview", token: "wrong", json: Self.preview("POST", "/admin/reload")).status == 401)
            let noToken = try await InProcessServer(config: .demo(), token: nil)
            let refused = try noToken.client().admin("POST", "/admin/preview", json: Self.preview("POST", "/admin/reload"))
            #expect(refused.status == 403 && refused.errorCode == "admin_disabled", "\(refused.dump)")
        }

        @Test("the sample in /metrics: URLs and bytes within max_bytes; off with urls: 0, and the preview compares nothing")
        func metrics() async throws {
            let server = try await Self.server()
            let client = try server.client()
            for id in 1...3 { #expect(try client.resolve("shopapp://product/\(id)?token=secret").status == 200) }
            let text = try client.request("GET", "/metrics").text
            let entry = "shopapp://product/1?token=xxxxxx".utf8.count + 64
            #expect(metricValue(text, "switchboard_traffic_sample_urls") == 3)
            #expect(metricValue(text, "switchboard_traffic_sample_bytes") == Double(3 * entry))
            #expect(metricValue(text, "switchboard_traffic_sample_taken_total") == 3)

            // The byte bound holds on a live server: the oldest requests go first.
            let small = try await Self.server(sample: "{ every: 1, max_bytes: 1024 }")
            let smallClient = try small.client()
            for id in 1...30 { #expect(try smallClient.resolve("shopapp://product/\(id)").status == 200) }
            let smallText = try smallClient.request("GET", "/metrics").text
            let kept = try #require(metricValue(smallText, "switchboard_traffic_sample_urls"))
            let used = try #require(metricValue(smallText, "switchboard_traffic_sample_bytes"))
            #expect(kept > 0 && kept < 30 && used <= 1024, "\(kept) requests, \(used) bytes")
            #expect(metricValue(smallText, "switchboard_traffic_sample_taken_total") == 30)

            let off = try await Self.server(sample: "{ urls: 0 }")
            let offClient = try off.client()
            #expect(try offClient.resolve("shopapp://cart").status == 200)
            let offText = try offClient.request("GET", "/metrics").text
            #expect(metricValue(offText, "switchboard_traffic_sample_urls") == 0)
            let preview = try offClient.admin("POST", "/admin/preview", json: Self.preview("POST", "/admin/rules", Self.double11))
            #expect(preview.status == 200)
            #expect((preview.json["sample"] as? [String: Any])?["urls"] as? Int == 0)
        }
    }
}
