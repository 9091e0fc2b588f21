import SwitchboardTestSupport
import Testing

@testable import SwitchboardServer

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

extension IntegrationTests.RequestBodyTests {
    @Test(
        "a name given twice in one object is refused and changes nothing",
        arguments: [
            ("POST", "/admin/rules", #"{"id": "dup", "match": "^shopapp://a", "match": "^shopapp://b", "target": "shopapp://c"}"#),
            ("POST", "/admin/rules", #"{"rules": [{"id": "dup", "match": "x", "target": "shopapp://c", "id": "dup2"}]}"#),
            ("PUT", "/admin/rules", #"{"rules": [], "rules": [{"id": "dup", "match": "x", "target": "shopapp://c"}]}"#),
            ("POST", "/admin/routes", #"{"id": "dup", "pattern": "/dup", "target": {"page": "A", "page": "B"}}"#),
            ("POST", "/admin/rollback", #"{"version": 0, "version": 0}"#),
        ])
    func duplicateKey(method: String, path: String, body: String) async throws {
        let server = try await InProcessServer(config: .demo())
        let client = try server.client()
        let response = try client.admin(method, path, json: body)
        #expect(response.status == 400, "\(response.dump)")
        #expect(response.errorCode == "invalid_body")
        #expect(response.errorMessage.contains("given twice"), "\(response.errorMessage)")
        let status = try client.admin("GET", "/admin/rules")
        #expect(status.etag == #""0""#)
    }

    @Test("a body nested deeper than the limit is refused as such and changes nothing; one at the limit is taken")
    func nestingDepth() async throws {
        let server = try await InProcessServer(config: .demo())
        let client = try server.client()
        func route(_ id: String, targetDepth: Int) -> String {
            let inner = String(repeating: "[", count: targetDepth - 1) + "1" + String(repeating: "]", count: targetDepth - 1)
            return #"{"id": "\#(id)", "pattern": "/\#(id)", "target": {"deep": \#(inner)}}"#
        }
        // The body's own object and the target's add two levels to the target's arrays.
        let tooDeep = try client.admin("POST", "/admin/routes", json: route("deep", targetDepth: JSONBodyShape.maximumDepth))
        #expect(tooDeep.status == 400, "\(tooDeep.dump)")
        #expect(tooDeep.errorMessage.contains("more than 64 levels deep"), "\(tooDeep.errorMessage)")
        #expect(try client.admin("GET", "/admin/rules").etag == #""0""#)
        let atTheLimit = try client.admin("POST", "/admin/routes", json: route("deep", targetDepth: JSONBodyShape.maximumDepth - 1))
        #expect(atTheLimit.status == 201, "\(atTheLimit.dump)")
    }
}

extension IntegrationTests.RequestBodyTests {
    @Test("an object of 70,000 members, from anyone, is answered within the client's timeout: the body's scan is linear")
    func manyMembers() async throws {
        let server = try await InProcessServer(config: .demo())
        let members = (0..<70_000).map { #""k\#($0)": 0"# }.joined(separator: ",")
        let body = #"{"urls": ["shopapp://product/1"], "context": {"# + members + "}}"
        let response = try server.client(timeout: .seconds(20)).request(
            "POST", "/resolve", headers: [("Content-Type", "application/json")], body: Array(body.utf8))
        #expect(response.status == 200, "\(response.dump)")
    }
}
