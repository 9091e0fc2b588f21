import SwitchboardTestSupport
import Testing

extension IntegrationTests {
    /// `GET /admin/history/{version}`: the admin state a version left.
    @Suite("The state of one version over loopback")
    struct AdminVersionStateTests {
        @Test("each version's rules and routes, version 0 empty, unknown versions 404, bad ones 400")
        func versionStates() async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            let rule = #"{"id": "sale", "match": "^shopapp://product/(\\d+)", "target": "shopapp://promo/double11?item=$1"}"#
            #expect(try client.admin("POST", "/admin/rules", json: rule).status == 201)
            let route = #"{"id": "promo.pushed", "module": "promo", "pattern": "/pushed/:id", "target": {"page": "P"}}"#
            #expect(try client.admin("POST", "/admin/routes", json: route).status == 201)
            #expect(try client.admin("DELETE", "/admin/rules/sale").status == 204)

            let first = try client.admin("GET", "/admin/history/1")
            #expect(first.status == 200, "\(first.dump)")
            #expect(first.json["version"] as? Int == 1 && first.json["current"] as? Int == 3)
            #expect(first.etag == #""3""#)
            let rules = try #require(first.json["rules"] as? [[String: Any]])
            #expect(rules.map { $0["id"] as? String } == ["sale"])
            #expect(rules.first?["target"] as? String == "shopapp://promo/double11?item=$1")
            #expect((first.json["routes"] as? [Any])?.isEmpty == true)

            let second = try client.admin("GET", "/admin/history/2")
            #expect((second.json["rules"] as? [[String: Any]])?.count == 1)
            #expect((second.json["routes"] as? [[String: Any]])?.first?["id"] as? String == "promo.pushed")
            let current = try client.admin("GET", "/admin/history/3")
            #expect((current.json["rules"] as? [Any])?.isEmpty == true)
            #expect((current.json["routes"] as? [Any])?.count == 1)
            let empty = try client.admin("GET", "/admin/history/0")
            #expect((empty.json["rules"] as? [Any])?.isEmpty == true && (empty.json["routes"] as? [Any])?.isEmpty == true)

            #expect(try client.admin("GET", "/admin/history/4").status == 404)
            #expect(try client.admin("GET", "/admin/history/4").errorCode == "not_found")
            #expect(try client.admin("GET", "/admin/history/-1").status == 400)
            #expect(try client.admin("GET", "/admin/history/x").status == 400)
            #expect(try client.admin("GET", "/admin/history/1", token: nil).status == 401)
        }

        @Test("a version the history no longer holds is a 404")
        func droppedVersion() async throws {
            let config = try TestConfig.demo()
            try config.writeSettings(try config.read("switchboard.yaml") + "history_limit: 1\n")
            let server = try await InProcessServer(config: config)
            let client = try server.client()
            for id in ["a", "b"] {
                let rule = #"{"id": "\#(id)", "match": "^\#(id)://", "target": "shopapp://me"}"#
                #expect(try client.admin("POST", "/admin/rules", json: rule).status == 201)
            }
            #expect(try client.admin("GET", "/admin/history/1").status == 404)
            #expect(try client.admin("GET", "/admin/history/2").status == 200)
        }
    }
}
