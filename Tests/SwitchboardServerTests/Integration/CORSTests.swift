import SwitchboardTestSupport
import Testing

extension IntegrationTests {
    /// Cross-origin access for web pages (docs/operations.md "CORS"): `Access-Control-*` only for an allowed
    /// `Origin`, on `/resolve`, `/open` and the `.well-known` files, and preflights answered.
    @Suite("CORS for /resolve, /open and the .well-known files")
    struct CORSTests {
        static let allowed = "https://m.shop.example.com"

        static func server() async throws -> InProcessServer {
            let config = try TestConfig.demo()
            try config.writeSettings(try config.read("switchboard.yaml") + "cors_allowed_origins: [\"\(allowed)\"]\n")
            return try await InProcessServer(config: config)
        }

        @Test("an allowed Origin gets Access-Control-Allow-Origin and Vary; another gets no Access-Control-* header")
        func allowedOriginsOnly() async throws {
            let server = try await Self.server()
            let client = try server.client()
            let target = "/resolve?url=" + HTTPTestClient.queryValue("shopapp://product/42")
            for path in [target, "/open?url=x", "/.well-known/apple-app-site-association", "/.well-known/assetlinks.json"] {
                let response = try client.request("GET", path, headers: [("Origin", Self.allowed)])
                #expect(response.header("Access-Control-Allow-Origin") == Self.allowed, "\(path): \(response.dump)")
                #expect(response.header("Vary") == "Origin", "\(path)")
                let other = try client.request("GET", path, headers: [("Origin", "https://evil.example")])
                #expect(!other.headers.contains { $0.name.lowercased().hasPrefix("access-control-") }, "\(path): \(other.dump)")
            }
            // A cached answer: the headers follow the request, not the first one that filled the cache.
            let plain = try client.request("GET", target)
            #expect(plain.header("Access-Control-Allow-Origin") == nil)
            #expect(
                try client.request("GET", target, headers: [("Origin", Self.allowed)]).header("Access-Control-Allow-Origin") == Self.allowed
            )
            // Never on the admin API or the metrics.
            for path in ["/admin/status", "/metrics", "/readyz"] {
                let response = try client.admin("GET", path, headers: [("Origin", Self.allowed)])
                #expect(response.header("Access-Control-Allow-Origin") == nil, "\(path)")
            }
        }

        @Test("a preflight is answered 204 with the methods and headers for an allowed Origin, without them for another")
        func preflight() async throws {
            let server = try await Self.server()
            let client = try server.client()
            let request = [("Origin", Self.allowed), ("Access-Control-Request-Method", "POST")]
            let allowed = try client.request("OPTIONS", "/resolve", headers: request)
            #expect(allowed.status == 204, "\(allowed.dump)")
            #expect(allowed.header("Access-Control-Allow-Origin") == Self.allowed)
            #expect(allowed.header("Access-Control-Allow-Methods") == "GET, POST")
            #expect(allowed.header("Access-Control-Allow-Headers")?.contains("X-Device-Id") == true)
            let refused = try client.request("OPTIONS", "/resolve", headers: [("Origin", "https://evil.example")])
            #expect(refused.status == 204)
            #expect(!refused.headers.contains { $0.name.lowercased().hasPrefix("access-control-") }, "\(refused.dump)")
            // The admin API takes no part: no preflight answer, no Access-Control-* header.
            let admin = try client.request("OPTIONS", "/admin/rules", headers: request)
            #expect(admin.status != 204 && admin.header("Access-Control-Allow-Origin") == nil, "\(admin.dump)")
        }

        @Test("without cors_allowed_origins no Access-Control-* header is sent")
        func offByDefault() async throws {
            let server = try await InProcessServer(config: .demo())
            let response = try server.client().request(
                "GET", "/resolve?url=" + HTTPTestClient.queryValue("shopapp://product/42"), headers: [("Origin", Self.allowed)])
            #expect(!response.headers.contains { $0.name.lowercased().hasPrefix("access-control-") }, "\(response.dump)")
        }
    }
}
