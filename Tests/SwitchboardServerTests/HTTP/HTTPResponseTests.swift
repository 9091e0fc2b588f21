import Foundation
import SwitchboardServer
import Testing

@Suite("HTTP request and response values")
struct HTTPResponseTests {
    @Test("the JSON error body has DESIGN §5's exact shape")
    func errorShape() {
        let response = HTTPResponse.error(status: 400, code: "invalid_url", message: "bad")
        #expect(response.status == 400)
        #expect(response.header("content-type") == "application/json; charset=utf-8")
        #expect(
            String(decoding: response.body, as: UTF8.self) == #"{"error":{"code":"invalid_url","message":"bad"}}"#)
    }

    @Test("error messages are escaped so the body stays valid JSON")
    func errorEscaping() throws {
        let message = "quote \" backslash \\ newline \n tab \t nul \u{0} bell \u{7} ä€😀 \u{2028}"
        let response = HTTPResponse.error(status: 422, code: "x", message: message)
        let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: [String: String]]
        #expect(object?["error"]?["message"] == message)
        #expect(object?["error"]?["code"] == "x")
    }

    @Test("json and text conveniences set the content type")
    func conveniences() {
        #expect(HTTPResponse.json(#"{"a":1}"#).header("Content-Type") == "application/json; charset=utf-8")
        #expect(HTTPResponse.json(status: 201, [UInt8]("[]".utf8)).status == 201)
        #expect(HTTPResponse.text("hi").header("Content-Type") == "text/plain; charset=utf-8")
        #expect(HTTPResponse.text("hi", headers: [("ETag", "\"3\"")]).header("etag") == "\"3\"")
    }

    @Test("header lookup is case-insensitive and returns the first value")
    func requestHeaderLookup() {
        let request = HTTPRequest(
            method: "GET", path: "/", headers: [("Authorization", "Bearer a"), ("authorization", "Bearer b")])
        #expect(request.header("AUTHORIZATION") == "Bearer a")
        #expect(request.headers(named: "authorization") == ["Bearer a", "Bearer b"])
        #expect(request.header("Authorizatio") == nil)
        #expect(HTTPRequest(method: "GET", path: "/a", query: "b=1").target == "/a?b=1")
    }
}
