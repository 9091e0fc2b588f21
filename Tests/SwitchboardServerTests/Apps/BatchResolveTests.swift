import Foundation
import SwitchboardTestSupport
import Testing

/// `POST /resolve` over a real loopback socket: each result is what `GET /resolve` answers,
/// plus its own status; bad bodies and oversized batches are clear errors.
@Suite("POST /resolve (batch)", .blockingIO)
struct BatchResolveTests {
    static let settings = """
        schemes: [myapp]
        domains: [shop.example.com]
        fallback: "https://m.example.com/?from=$$url"
        """
    static let routes = [
        "product": """
        module: product
        routes:
          - id: product.detail
            pattern: /product/:id<int>
            target: { page: ProductDetail }
            params: { source: deeplink }
        """
    ]

    static func server() throws -> AppsTestServer {
        try AppsTestServer(settings: settings, routes: routes)
    }

    static func body(_ urls: [String]) throws -> [UInt8] {
        Array(try JSONSerialization.data(withJSONObject: ["urls": urls]))
    }

    @Test("each result is exactly the GET /resolve body plus its status, in order")
    func resultsMatchGet() throws {
        let server = try Self.server()
        let urls = ["myapp://product/42?x=1", "https://shop.example.com/nothing", "not a url", "myapp://product/abc"]
        let response = try server.request("POST", "/resolve", body: try Self.body(urls))
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json; charset=utf-8")
        let results = try #require(try response.object()["results"] as? [[String: Any]])
        #expect(results.count == urls.count)
        for (url, result) in zip(urls, results) {
            let single = try server.get("/resolve", url: url)
            var expected = try single.object()
            expected["status"] = single.status
            #expect(NSDictionary(dictionary: result) == NSDictionary(dictionary: expected), "\(url)")
        }
        #expect(results.map { $0["status"] as? Int } == [200, 404, 400, 404])
        let error = try #require(results[2]["error"] as? [String: Any])
        #expect(error["code"] as? String == "invalid_url")
        #expect(results[1]["fallback"] as? String == "https://m.example.com/?from=https%3A%2F%2Fshop.example.com%2Fnothing")
    }

    @Test("the result keeps the exact key order of GET /resolve, with status last")
    func keyOrder() throws {
        let server = try Self.server()
        let response = try server.request("POST", "/resolve", body: try Self.body(["myapp://product/7"]))
        let single = try server.get("/resolve", url: "myapp://product/7")
        let expected = #"{"results":["# + String(single.text.dropLast()) + #","status":200}]}"#
        #expect(response.text == expected)
    }

    @Test("100 URLs are fine; 101 is a 413 too_many_urls")
    func limit() throws {
        let server = try Self.server()
        let hundred = try server.request("POST", "/resolve", body: try Self.body((0..<100).map { "myapp://product/\($0)" }))
        #expect(hundred.status == 200)
        #expect((try hundred.object()["results"] as? [Any])?.count == 100)
        let tooMany = try server.request("POST", "/resolve", body: try Self.body((0..<101).map { "myapp://product/\($0)" }))
        #expect(tooMany.status == 413)
        #expect((try tooMany.object()["error"] as? [String: Any])?["code"] as? String == "too_many_urls")
    }

    @Test(
        "an empty or invalid body is a 400 invalid_body",
        arguments: [
            "", "{", "[]", "\"x\"", "{}", #"{"urls": []}"#, #"{"urls": "myapp://product/1"}"#,
            #"{"urls": [1]}"#, #"{"urls": [null]}"#, #"{"urls": ["myapp://product/1"], "extra": 1}"#,
        ])
    func invalidBody(body: String) throws {
        let server = try Self.server()
        let response = try server.request("POST", "/resolve", body: Array(body.utf8))
        #expect(response.status == 400)
        #expect((try response.object()["error"] as? [String: Any])?["code"] as? String == "invalid_body")
    }

    @Test("an empty string in the batch is a 400 element, not a failed batch")
    func emptyURLElement() throws {
        let server = try Self.server()
        let response = try server.request("POST", "/resolve", body: try Self.body(["", "myapp://product/1"]))
        #expect(response.status == 200)
        let results = try #require(try response.object()["results"] as? [[String: Any]])
        #expect(results.map { $0["status"] as? Int } == [400, 200])
    }

    @Test("other methods still get 405 with Allow listing POST")
    func methodNotAllowed() throws {
        let server = try Self.server()
        let response = try server.request("PUT", "/resolve", body: [])
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET, HEAD, POST")
    }
}
