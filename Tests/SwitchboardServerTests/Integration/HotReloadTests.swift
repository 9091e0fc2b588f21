import Foundation
import SwitchboardTestSupport
import Testing

extension IntegrationTests {
    /// The config directory is watched and re-read on change and on `POST /admin/reload`; a
    /// reload is all-or-nothing (design.md §6).
    @Suite("Hot reload over loopback")
    struct HotReloadTests {
        static let flashRoutes = """
            module: promo
            routes:
              - id: promo.flash
                pattern: /flash/:slot<int>
                target: { page: FlashSale }
            """

        /// `lastReload` of `/admin/status`.
        private func lastReload(_ client: HTTPTestClient) throws -> [String: Any] {
            try client.admin("GET", "/admin/status").json["lastReload"] as? [String: Any] ?? [:]
        }

        @Test("a new route file is served within 2 s of being written")
        func addedRouteFileIsServed() async throws {
            let config = try TestConfig.demo()
            let server = try await InProcessServer(config: config)
            let client = try server.client()
            #expect(try client.resolve("shopapp://flash/1").status == 404)
            try config.write("routes.d/promo.yaml", Self.flashRoutes)
            let served = try await eventually(timeout: .seconds(2)) { try client.resolve("shopapp://flash/1").status == 200 }
            #expect(served)
            #expect(try client.resolve("shopapp://flash/1").json["routeId"] as? String == "promo.flash")
            // An edit in place of an existing file is seen too.
            let product = try config.read("routes.d/product.yaml")
            try Data(product.replacingOccurrences(of: "page: ProductDetail }\n    params", with: "page: ProductPage }\n    params").utf8)
                .write(to: URL(fileURLWithPath: config.directory + "/routes.d/product.yaml"))
            let edited = try await eventually(timeout: .seconds(2)) {
                try client.resolve("shopapp://product/1").text.contains(#""page":"ProductPage""#)
            }
            #expect(edited)
            let metrics = try client.request("GET", "/metrics").text
            #expect(metricValue(metrics, #"switchboard_reloads_total{result="ok"}"#).map { $0 >= 2 } == true)
            #expect(metricValue(metrics, "switchboard_routes") == 37)
        }

        @Test("a broken file keeps the old config served and is reported; fixing it recovers")
        func brokenFileThenFixed() async throws {
            let config = try TestConfig.demo()
            let server = try await InProcessServer(config: config)
            let client = try server.client()
            let original = try config.read("routes.d/search.yaml")
            try config.write("routes.d/search.yaml", original + "  - id: search.broken\n    pattern: /broken\n    tagret: {}\n")
            var reload: [String: Any] = [:]
            let failed = try await eventually(timeout: .seconds(2)) {
                reload = try lastReload(client)
                return reload["ok"] as? Bool == false
            }
            #expect(failed, "\(reload)")
            #expect(reload["trigger"] as? String == "watch")
            let errors = reload["errors"] as? [String] ?? []
            #expect(errors.count == 1)
            #expect(errors.first?.contains("routes.d/search.yaml") == true, "\(errors)")
            #expect(errors.first?.contains("tagret") == true, "\(errors)")
            // The previous config is still served, search routes included.
            #expect(try client.resolve("shopapp://search/shoes").json["routeId"] as? String == "search.results")
            #expect(try client.resolve("shopapp://broken").status == 404)
            let metrics = try client.request("GET", "/metrics").text
            #expect(metricValue(metrics, #"switchboard_reloads_total{result="failed"}"#) == 1)
            #expect(metricValue(metrics, "switchboard_config_last_reload_success") == 0)
            #expect(metricValue(metrics, "switchboard_routes") == 36)

            try config.write("routes.d/search.yaml", original + "  - id: search.fixed\n    pattern: /fixed\n    target: {}\n")
            let recovered = try await eventually(timeout: .seconds(2)) { try client.resolve("shopapp://fixed").status == 200 }
            #expect(recovered)
            #expect(try lastReload(client)["ok"] as? Bool == true)
            #expect(try lastReload(client)["errors"] as? [String] == [])
            let after = try client.request("GET", "/metrics").text
            #expect(metricValue(after, "switchboard_config_last_reload_success") == 1)
            #expect(metricValue(after, "switchboard_routes") == 37)
        }

        /// A JSON route file of `count` routes `bulk.N` (`/bulkN/:id`); `route(n)` may replace the
        /// text of route `n`.
        static func bulkFile(count: Int, moduleLast: Bool = false, route: (Int) -> String? = { _ in nil }) -> String {
            let routes = (0..<count).map { n in
                route(n) ?? #"{"id": "bulk.\#(n)", "pattern": "/bulk\#(n)/:id", "target": {"page": "Bulk"}}"#
            }
            let list = #""routes": [\#n\#(routes.joined(separator: ",\n"))\#n]"#
            return moduleLast ? "{\(list), \"module\": \"bulk\"}" : "{\"module\": \"bulk\", \(list)}"
        }

        @Test("a large JSON route file reloads in chunks: every route is served, also when the fast reader gives up halfway")
        func largeJSONRouteFile() async throws {
            let config = try TestConfig.demo()
            let server = try await InProcessServer(config: config)
            // A debug build reloading 5,000 routes (Yams reads half of them) beside suites that
            // compile Swift can take longer than the default 10 s.
            let client = try server.client(timeout: .seconds(60))
            func routeID(_ n: Int) throws -> String? {
                try client.resolve("shopapp://bulk\(n)/7").json["routeId"] as? String
            }
            // More routes than a reload hands over at a time (2,048).
            try config.write("routes.d/bulk.json", Self.bulkFile(count: 5000))
            let plain = try client.admin("POST", "/admin/reload")
            #expect(plain.status == 200, "\(plain.dump)")
            #expect(plain.json["routes"] as? Int == 36 + 5000)
            #expect(try routeID(0) == "bulk.0" && routeID(2048) == "bulk.2048" && routeID(4999) == "bulk.4999")

            // `examples` makes the fast reader give up after two chunks; Yams reads the rest.
            try config.write(
                "routes.d/bulk.json",
                Self.bulkFile(count: 5001) { n in
                    n == 4500 ? #"{"id": "bulk.4500", "pattern": "/bulk4500/:id", "examples": ["shopapp://bulk4500/1"]}"# : nil
                })
            let halfway = try client.admin("POST", "/admin/reload")
            #expect(halfway.status == 200, "\(halfway.dump)")
            #expect(halfway.json["routes"] as? Int == 36 + 5001)
            #expect(try routeID(4095) == "bulk.4095" && routeID(4500) == "bulk.4500" && routeID(5000) == "bulk.5000")

            // A syntax error after two chunks were registered: nothing changes.
            try config.write("routes.d/bulk.json", Self.bulkFile(count: 5000) { n in n == 4500 ? "{oops}" : nil })
            let broken = try client.admin("POST", "/admin/reload")
            #expect(broken.status == 422, "\(broken.dump)")
            let errors = broken.json["errors"] as? [[String: Any]] ?? []
            #expect(errors.compactMap { $0["file"] as? String } == ["routes.d/bulk.json"], "\(broken.text)")
            #expect(try routeID(5000) == "bulk.5000")

            // The module after the routes.
            try config.write("routes.d/bulk.json", Self.bulkFile(count: 3000, moduleLast: true))
            let moduleLast = try client.admin("POST", "/admin/reload")
            #expect(moduleLast.status == 200, "\(moduleLast.dump)")
            #expect(moduleLast.json["routes"] as? Int == 36 + 3000)
            #expect(try routeID(2999) == "bulk.2999" && routeID(3000) == nil)
        }

        @Test("POST /admin/reload: 200 with counts, or 422 naming every broken file (nothing changes)")
        func reloadEndpoint() async throws {
            let config = try TestConfig.demo()
            let server = try await InProcessServer(config: config)
            let client = try server.client()
            let ok = try client.admin("POST", "/admin/reload")
            #expect(ok.status == 200, "\(ok.dump)")
            #expect(ok.json["routes"] as? Int == 36)
            #expect(ok.json["rules"] as? Int == 7)
            #expect(try lastReload(client)["trigger"] as? String == "api")

            try config.write("routes.d/zz-conflict.yaml", "module: zz\nroutes:\n  - id: zz.product\n    pattern: /product/:n<int>\n")
            try config.write("rewrites.yaml", "rules:\n  - id: bad\n    match: '('\n    target: shopapp://x\n")
            let refused = try client.admin("POST", "/admin/reload")
            #expect(refused.status == 422, "\(refused.dump)")
            #expect(refused.errorCode == "invalid_config")
            let errors = refused.json["errors"] as? [[String: Any]] ?? []
            let files = Set(errors.compactMap { $0["file"] as? String })
            #expect(files == ["routes.d/zz-conflict.yaml", "rewrites.yaml"], "\(refused.text)")
            #expect(errors.contains { ($0["message"] as? String)?.contains("product.detail") == true })
            #expect(try client.resolve("shopapp://goods/5").json["ruleIds"] as? [String] == ["goods-renamed"])
            #expect(try lastReload(client)["ok"] as? Bool == false)

            try FileManager.default.removeItem(atPath: config.directory + "/routes.d/zz-conflict.yaml")
            try FileManager.default.copyItem(
                atPath: Repository.demoConfig.path + "/rewrites.yaml", toPath: config.directory + "/rewrites.yaml.new")
            try FileManager.default.removeItem(atPath: config.directory + "/rewrites.yaml")
            try FileManager.default.moveItem(atPath: config.directory + "/rewrites.yaml.new", toPath: config.directory + "/rewrites.yaml")
            let fixed = try client.admin("POST", "/admin/reload")
            #expect(fixed.status == 200)
            #expect(fixed.json["rules"] as? Int == 7)
        }

        @Test("POST /admin/reload?dry_run=1 is refused before anything is read, not carried out as a reload")
        func reloadHasNoDryRun() async throws {
            let config = try TestConfig.demo()
            let server = try await InProcessServer(config: config)
            let client = try server.client()
            try config.write("routes.d/promo.yaml", Self.flashRoutes)
            for query in ["dry_run=1", "dry_run=true", "dry_run=maybe"] {
                let refused = try client.admin("POST", "/admin/reload?\(query)")
                #expect(refused.status == 400, "\(refused.dump)")
                #expect(refused.errorCode == "invalid_parameter")
            }
            #expect(try client.admin("POST", "/admin/reload?dry_run=1").errorMessage.contains("/admin/preview"))
            #expect(try lastReload(client)["trigger"] as? String != "api")
            #expect(try client.admin("POST", "/admin/reload?dry_run=0").status == 200)
            #expect(try client.resolve("shopapp://flash/1").status == 200)
        }

        @Test("admin rules and routes survive reloads")
        func adminStateSurvivesReload() async throws {
            let config = try TestConfig.demo()
            let server = try await InProcessServer(config: config)
            let client = try server.client()
            let rule = #"{"id":"promo","match":"^shopapp://p/([0-9]+)","target":"shopapp://flash/$1"}"#
            #expect(try client.admin("POST", "/admin/rules", json: rule).status == 201)
            #expect(try client.admin("POST", "/admin/routes", json: #"{"id":"admin.x","pattern":"/x","target":{}}"#).status == 201)
            try config.write("routes.d/promo.yaml", Self.flashRoutes)
            #expect(try client.admin("POST", "/admin/reload").status == 200)
            let resolved = try client.resolve("shopapp://p/4")
            #expect(resolved.json["ruleIds"] as? [String] == ["promo"])
            #expect(resolved.json["routeId"] as? String == "promo.flash")
            #expect(try client.resolve("shopapp://x").json["routeId"] as? String == "admin.x")
            let rules = try client.admin("GET", "/admin/rules")
            #expect(rules.etag == #""2""#)
            #expect((rules.json["rules"] as? [[String: Any]])?.count == 8)
            // A config that now clashes with an admin route is refused as a whole.
            try config.write("routes.d/clash.yaml", "module: clash\nroutes:\n  - id: clash.x\n    pattern: /x\n")
            let clash = try client.admin("POST", "/admin/reload")
            #expect(clash.status == 422)
            #expect(clash.text.contains("clash.x") && clash.text.contains("admin.x"), "\(clash.text)")
            #expect(try client.resolve("shopapp://x").json["routeId"] as? String == "admin.x")
        }
    }
}
