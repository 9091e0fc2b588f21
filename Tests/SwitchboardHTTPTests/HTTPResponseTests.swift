import Foundation
import SwitchboardHTTP
import SwitchboardTestSupport
import Testing

@Suite("HTTP request and response values")
struct HTTPResponseTests {
    @Test("a refusal without a responder of the application's is plain text naming its code")
    func plainTextRefusal() {
        let response = HTTPRefusal.plainTextResponse(HTTPRefusal(status: 413, code: "body_too_large", message: "too big"))
        #expect(response.status == 413)
        #expect(response.header("content-type") == "text/plain; charset=utf-8")
        #expect(String(decoding: response.body, as: UTF8.self) == "body_too_large: too big\n")
    }

    @Test("json and text conveniences set the content type")
    func conveniences() {
        #expect(HTTPResponse.json(#"{"a":1}"#).header("Content-Type") == "application/json; charset=utf-8")
        #expect(HTTPResponse.json(status: 201, [UInt8]("[]".utf8)).status == 201)
        #expect(HTTPResponse.text("hi").header("Content-Type") == "text/plain; charset=utf-8")
        #expect(HTTPResponse.text("hi", headers: [("ETag", "\"3\"")]).header("etag") == "\"3\"")
    }

    @Test("the request id is a header of the response, sent after the others")
    func requestIDSlot() {
        var response = HTTPResponse.json("{}", headers: [("Cache-Control", "no-store")])
        #expect(response.header("X-Request-Id") == nil)
        response.requestID = "abc123"
        #expect(response.header("x-request-id") == "abc123")
        #expect(response.headers.count == 1)
        #expect(
            response.allHeaders.map { "\($0.name): \($0.value)" } == [
                "Content-Type: application/json; charset=utf-8", "Cache-Control: no-store", "X-Request-Id: abc123",
            ])
        #expect(String(decoding: response.closingWireBytes, as: UTF8.self).contains("\r\nX-Request-Id: abc123\r\n"))
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
