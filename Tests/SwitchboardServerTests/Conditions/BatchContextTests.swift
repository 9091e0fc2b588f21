import Foundation
import SwitchboardTestSupport
import Testing

/// `POST /resolve` with a context for the batch or for each URL: conditional rules tried for
/// several apps and times in one call.
@Suite("Batch resolve with a context", .blockingIO)
struct BatchContextTests {
    static func results(_ server: AppsTestServer, _ body: String) throws -> [[String: Any]] {
        let response = try server.request("POST", "/resolve", body: Array(body.utf8))
        #expect(response.status == 200, "\(response.text)")
        return try #require(try response.object()["results"] as? [[String: Any]])
    }

    @Test("a URL's own context wins over the batch's, which wins over the request's headers")
    func precedence() throws {
        let server = try ConditionalRulesTests.server(ConditionalRulesTests.TestClock(ConditionalRulesTests.start))
        let results = try Self.results(
            server,
            """
            {"context": {"platform": "android", "appVersion": "5.3.0"},
             "urls": [{"url": "shopapp://home", "platform": "ios"}, "shopapp://home",
                      {"url": "shopapp://home", "platform": "ios", "appVersion": "4.0.0"}]}
            """)
        #expect(results.map { $0["routeId"] as? String } == ["ios.home", nil, nil], "\(results)")
        #expect(results.map { $0["status"] as? Int } == [200, 404, 404])
    }

    @Test("at tries a time window: inside it the rule fires, after it does not")
    func timeWindow() throws {
        let server = try ConditionalRulesTests.server(ConditionalRulesTests.TestClock(ConditionalRulesTests.start))
        let results = try Self.results(
            server,
            """
            {"urls": [{"url": "shopapp://sale", "at": "2026-11-11T01:00:00+08:00"},
                      {"url": "shopapp://sale", "at": "2026-11-12T00:00:00+08:00"}]}
            """)
        #expect(results.map { $0["ruleIds"] as? [String] } == [["double11"], nil], "\(results)")
    }

    @Test(
        "a context the server would not take is a 400 naming the field",
        arguments: [
            #"{"urls": ["shopapp://home"], "context": {"platform": "windows"}}"#,
            #"{"urls": [{"url": "shopapp://home", "appVersion": "five"}]}"#,
            #"{"urls": [{"url": "shopapp://home", "at": "tomorrow"}]}"#,
            #"{"urls": [{"url": "shopapp://home", "colour": "red"}]}"#,
            #"{"urls": [{"platform": "ios"}]}"#,
        ])
    func badContext(body: String) throws {
        let server = try ConditionalRulesTests.server(ConditionalRulesTests.TestClock(ConditionalRulesTests.start))
        let response = try server.request("POST", "/resolve", body: Array(body.utf8))
        #expect(response.status == 400, "\(response.text)")
        #expect((try response.object()["error"] as? [String: Any])?["code"] as? String == "invalid_body")
    }
}
