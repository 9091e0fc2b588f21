import SwitchboardTestSupport
import Testing

extension IntegrationTests {
    /// `GET /admin/table`: every route, config and admin, a page at a time.
    @Suite("The full routing table over loopback")
    struct AdminTableTests {
        /// Every row, following `next` from page to page.
        static func allRows(_ client: HTTPTestClient, query: String = "", limit: Int) throws -> [[String: Any]] {
            var rows: [[String: Any]] = []
            var cursor: String? = "0"
            while let current = cursor {
                let page = try client.admin("GET", "/admin/table?limit=\(limit)&cursor=\(current)\(query)")
                #expect(page.status == 200, "\(page.dump)")
                rows += page.json["routes"] as? [[String: Any]] ?? []
                cursor = page.json["next"] as? String
            }
            return rows
        }

        @Test("pages cover config and admin routes once each, with module, patterns, target, web and source")
        func pagesCoverEveryRoute() async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            let added = try client.admin(
                "POST", "/admin/routes",
                json:
                    #"{"id": "promo.pushed", "module": "promo", "pattern": "/pushed/:id", "target": {"page": "P"}, "web": "https://m.shop.example.com/pushed/:id"}"#
            )
            #expect(added.status == 201, "\(added.dump)")
            let rows = try Self.allRows(client, limit: 7)
            let ids = rows.compactMap { $0["id"] as? String }
            #expect(ids.count == 37 && Set(ids).count == 37, "\(ids)")
            #expect(ids.last == "promo.pushed")
            #expect(rows.last?["source"] as? String == "admin")
            let product = try #require(rows.first { $0["id"] as? String == "product.detail" })
            #expect(product["module"] as? String == "product")
            #expect(product["source"] as? String == "routes.d/product.yaml")
            #expect((product["patterns"] as? [String])?.isEmpty == false)
            #expect(product["target"] is [String: Any])
            #expect(rows.last?["web"] as? String == "https://m.shop.example.com/pushed/:id")
        }

        @Test("each row counts the resolutions that matched its route")
        func hits() async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            for _ in 0..<3 { #expect(try client.resolve("shopapp://product/12").status == 200) }
            #expect(try client.request("GET", "/open?url=" + HTTPTestClient.queryValue("shopapp://product/13")).status != 0)
            let rows = try Self.allRows(client, query: "&module=product", limit: 50)
            let detail = try #require(rows.first { $0["id"] as? String == "product.detail" })
            #expect(detail["hits"] as? Int == 4, "\(detail)")
            #expect(rows.filter { $0["id"] as? String != "product.detail" }.allSatisfy { $0["hits"] as? Int == 0 })
        }

        @Test("module and id prefix filter the rows; a bad limit or cursor is a 400")
        func filters() async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            let product = try Self.allRows(client, query: "&module=product", limit: 2)
            #expect(!product.isEmpty && product.allSatisfy { $0["module"] as? String == "product" })
            let prefixed = try Self.allRows(client, query: "&prefix=product.d", limit: 1).compactMap { $0["id"] as? String }
            #expect(prefixed.contains("product.detail") && prefixed.allSatisfy { $0.hasPrefix("product.d") }, "\(prefixed)")
            #expect(!prefixed.contains("search.results"))
            for query in ["limit=0", "limit=1001", "limit=x", "cursor=-1"] {
                #expect(try client.admin("GET", "/admin/table?\(query)").status == 400, "\(query)")
            }
            #expect(try client.admin("GET", "/admin/table", token: nil).status == 401)
        }
    }
}
