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
                for token in [nil, "t", ""] as [String?] {
                    let response = try client.admin("GET", path, token: token)
                    #expect(response.status == 403, "\(path) \(token ?? "-")")
                    #expect(response.errorCode == "admin_disabled")
                }
            }
            #expect(try client.admin("POST", "/admin/reload", token: "t").status == 403)
            #expect(try client.admin("POST", "/admin/rules", token: "t", json: #"{"id":"a","match":"a","target":"b"}"#).status == 403)
            // Public endpoints are not affected.
            #expect(try client.resolve("shopapp://product/1").status == 200)
        }

        @Test("a token configured: 401 without or with a wrong token, 200 with the right one")
        func tokenConfigured() async throws {
            let server = try await InProcessServer(config: .demo(), token: "s3cret")
            let client = try server.client()
            for path in Self.endpoints {
                let missing = try client.admin("GET", path, token: nil)
                #expect(missing.status == 401)
                #expect(missing.errorCode == "unauthorized")
                #expect(missing.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
                for wrong in [
                    [("Authorization", "Bearer wrong")], [("Authorization", "Bearer s3cre")], [("Authorization", "Bearer s3cret2")],
                    [("Authorization", "Basic czNjcmV0")], [("Authorization", "s3cret")], [("Authorization", "Bearer ")],
                ] {
                    let response = try client.admin("GET", path, token: nil, headers: wrong)
                    #expect(response.status == 401, "\(wrong)")
                    #expect(response.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
                }
                let ok = try client.admin("GET", path, token: "s3cret")
                #expect(ok.status == 200, "\(ok.dump)")
                #expect(try client.admin("GET", path, token: nil, headers: [("authorization", "bearer s3cret")]).status == 200)
            }
            // Nothing was changed by the refused calls.
            let refused = try client.admin("POST", "/admin/rules", token: "nope", json: #"{"id":"a","match":"a","target":"b"}"#)
            #expect(refused.status == 401)
            #expect(try client.admin("GET", "/admin/rules", token: "s3cret").json["version"] as? Int == 0)
        }
    }
}
