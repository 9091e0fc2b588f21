import SwitchboardTestSupport
import Testing

extension IntegrationTests {
    /// Bodies are decoded through one path, and its refusals say what is wrong.
    @Suite("Request bodies over loopback")
    struct RequestBodyTests {
        @Test(
            "a number that does not fit its field is named as such, not as invalid JSON",
            arguments: [#"{"version": 99999999999999999999999}"#, #"{"version": 1e30}"#, #"{"version": 1.5}"#])
        func numberOutOfRange(body: String) async throws {
            let server = try await InProcessServer(config: .demo())
            let response = try server.client().admin("POST", "/admin/rollback", json: body)
            #expect(response.status == 400)
            #expect(response.errorCode == "invalid_body")
            #expect(response.errorMessage.contains("does not fit"), "\(response.errorMessage)")
            #expect(!response.errorMessage.contains("not valid JSON"))
        }

        @Test("a body that is not JSON says so")
        func notJSON() async throws {
            let server = try await InProcessServer(config: .demo())
            let response = try server.client().admin("POST", "/admin/rollback", json: "{version: 1}")
            #expect(response.status == 400)
            #expect(response.errorMessage.contains("not valid JSON"), "\(response.errorMessage)")
        }
    }
}
