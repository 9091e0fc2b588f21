import SwitchboardStore
import SwitchboardTestSupport
import Testing

extension IntegrationTests {
    /// `GET|POST /admin/routes`, `DELETE /admin/routes/{id}` (design.md §5): routes registered at
    /// run time, next to the config's.
    @Suite("Admin routes over loopback")
    struct AdminRoutesTests {
        static let flash =
            #"{"id":"promo.flash","module":"promo","pattern":"/flash/:slot<int>","target":{"page":"FlashSale"},"params":{"source":"push"}}"#

        private func listedIDs(_ client: HTTPTestClient) throws -> [String] {
            let response = try client.admin("GET", "/admin/routes")
            #expect(response.status == 200)
            return (response.json["routes"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        }

        @Test("POST a route: 201, it resolves, GET lists it")
        func postRoute() async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            #expect(try client.resolve("shopapp://flash/3").status == 404)
            let created = try client.admin("POST", "/admin/routes", json: Self.flash)
            #expect(created.status == 201, "\(created.dump)")
            #expect(created.etag == #""1""#)
            let resolved = try client.resolve("shopapp://flash/3?x=1")
            #expect(resolved.status == 200)
            #expect(
                resolved.text
                    == #"{"matched":true,"url":"shopapp://flash/3?x=1","routeId":"promo.flash","module":"promo","pattern":"/flash/:slot<int>","#
                    + #""target":{"page":"FlashSale"},"params":{"source":"push","x":"1","slot":"3"}}"#)
            let listed = try client.admin("GET", "/admin/routes")
            #expect(listed.etag == #""1""#)
            #expect(
                listed.text
                    == #"{"version":1,"routes":[{"id":"promo.flash","module":"promo","pattern":"/flash/:slot<int>","#
                    + #""target":{"page":"FlashSale"},"params":{"source":"push"}}]}"#)
            // A batch, with the default module and several patterns.
            let batch =
                #"{"routes":[{"id":"a.one","patterns":["/a1","shopapp://a/one"],"target":{"n":1}},{"id":"a.two","pattern":"/a2/*rest","target":{}}]}"#
            #expect(try client.admin("POST", "/admin/routes", json: batch).status == 201)
            #expect(try listedIDs(client) == ["promo.flash", "a.one", "a.two"])
            let two = try client.resolve("shopapp://a2/x/y")
            #expect(two.json["module"] as? String == "admin")
            #expect((two.json["params"] as? [String: Any])?["rest"] as? String == "x/y")
            #expect(try client.resolve("shopapp://a1").json["routeId"] as? String == "a.one")
        }

        @Test("an id that exists in the config is a 409")
        func configIDConflict() async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            let response = try client.admin("POST", "/admin/routes", json: #"{"id":"product.detail","pattern":"/elsewhere","target":{}}"#)
            #expect(response.status == 409)
            #expect(response.errorMessage.contains("product.detail"))
            #expect(try client.resolve("shopapp://elsewhere").status == 404)
            #expect(try client.admin("GET", "/admin/routes").json["version"] as? Int == 0)
        }

        @Test("a pattern that accepts the same URLs as another route is a 409 naming both ids")
        func patternConflict() async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            let withConfig = try client.admin(
                "POST", "/admin/routes", json: #"{"id":"my.product","pattern":"/product/:n<int>","target":{}}"#)
            #expect(withConfig.status == 409, "\(withConfig.dump)")
            #expect(
                withConfig.errorMessage.contains("my.product") && withConfig.errorMessage.contains("product.detail"),
                "\(withConfig.errorMessage)")
            #expect(try client.admin("POST", "/admin/routes", json: Self.flash).status == 201)
            let withAdmin = try client.admin("POST", "/admin/routes", json: #"{"id":"other.flash","pattern":"/flash/:n<int>","target":{}}"#)
            #expect(withAdmin.status == 409)
            #expect(
                withAdmin.errorMessage.contains("other.flash") && withAdmin.errorMessage.contains("promo.flash"),
                "\(withAdmin.errorMessage)")
            let sameID = try client.admin("POST", "/admin/routes", json: #"{"id":"promo.flash","pattern":"/flash2","target":{}}"#)
            #expect(sameID.status == 409)
            #expect(try listedIDs(client) == ["promo.flash"])
            #expect(try client.resolve("shopapp://product/1").json["routeId"] as? String == "product.detail")
        }

        @Test(
            "an invalid route is a 400 and changes nothing",
            arguments: [
                #"{"id":"x","target":{}}"#, #"{"id":"x","pattern":"/a/:n<(>","target":{}}"#,
                #"{"id":"x","pattern":"/a","target":"page"}"#, #"{"id":"x","pattern":"/a","target":{},"priority":1}"#,
                #"{"id":"x","pattern":"/a","patterns":["/b"],"target":{}}"#,
            ])
        func invalidRoute(body: String) async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            let response = try client.admin("POST", "/admin/routes", json: body)
            #expect(response.status == 400, "\(response.dump)")
            #expect(try client.admin("GET", "/admin/routes").json["version"] as? Int == 0)
        }

        @Test("DELETE an admin route: 204, then 404; a config route: 409")
        func delete() async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            #expect(try client.admin("POST", "/admin/routes", json: Self.flash).status == 201)
            let deleted = try client.admin("DELETE", "/admin/routes/promo.flash", headers: [("If-Match", #""1""#)])
            #expect(deleted.status == 204)
            #expect(deleted.etag == #""2""#)
            #expect(try client.resolve("shopapp://flash/3").status == 404)
            #expect(try client.admin("DELETE", "/admin/routes/promo.flash").status == 404)
            let config = try client.admin("DELETE", "/admin/routes/product.detail")
            #expect(config.status == 409)
            #expect(config.errorMessage.contains("product.detail"))
            #expect(try client.resolve("shopapp://product/1").status == 200)
            #expect(try listedIDs(client) == [])
            // An id with characters that need escaping in a path.
            #expect(try client.admin("POST", "/admin/routes", json: #"{"id":"a b/c","pattern":"/abc","target":{}}"#).status == 201)
            #expect(try client.admin("DELETE", "/admin/routes/a%20b%2Fc").status == 204)
        }
    }
}
