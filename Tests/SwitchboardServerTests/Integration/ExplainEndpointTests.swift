import Foundation
import SwitchboardTestSupport
import Testing

extension IntegrationTests {
    /// `GET /resolve?explain=1` and `POST /resolve?explain=1`: the usual body plus a `trace`.
    @Suite("Explain over loopback")
    struct ExplainEndpointTests {
        @Test("explain=1 adds the rules tried and the router's walk; explain=0 adds nothing")
        func explainAddsATrace() async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            let url = "https://shop.example.com/item.html?id=42"
            let plain = try client.resolve(url)
            let explained = try client.resolve(url, extraQuery: "&explain=1")
            #expect(explained.status == 200)
            let trace = try #require(explained.json["trace"] as? [String: Any])
            let rules = try #require(trace["rules"] as? [[String: Any]])
            #expect(rules.map { $0["id"] as? String } == ["web-search-to-native", "legacy-item-page"])
            #expect(rules.map { $0["result"] as? String } == ["skippedByPrefilter", "fired"])
            #expect(rules.last?["output"] as? String == "shopapp://product/42")
            let router = try #require(trace["router"] as? [String: Any])
            #expect(router["routeId"] as? String == "product.detail")
            #expect(router["segments"] as? [String] == ["product", "42"])
            #expect((router["steps"] as? [[String: Any]])?.contains { $0["branch"] as? String == "int" } == true)
            // Without the trace, the body is exactly the plain one.
            var withoutTrace = explained.json
            withoutTrace["trace"] = nil
            #expect(NSDictionary(dictionary: withoutTrace) == NSDictionary(dictionary: plain.json))
            #expect(try client.resolve(url, extraQuery: "&explain=0").text == plain.text)
            #expect(try client.resolve(url, extraQuery: "&explain=false").text == plain.text)
        }

        @Test("an unmatched URL is explained too, and a bad explain value is a 400 naming it")
        func unmatchedAndBadValue() async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            let unmatched = try client.resolve("shopapp://product/abc", extraQuery: "&explain=true")
            #expect(unmatched.status == 404)
            let steps = ((unmatched.json["trace"] as? [String: Any])?["router"] as? [String: Any])?["steps"] as? [[String: Any]] ?? []
            #expect(steps.contains { ($0["branch"] as? String) == "int" && ($0["outcome"] as? String)?.hasPrefix("refused") == true })
            let bad = try client.resolve("shopapp://product/1", extraQuery: "&explain=yes")
            #expect(bad.status == 400)
            #expect(bad.errorMessage.contains("explain"))
        }

        @Test("POST /resolve?explain=1 adds a trace to each result")
        func batchExplain() async throws {
            let server = try await InProcessServer(config: .demo())
            let response = try server.client().request(
                "POST", "/resolve?explain=1", body: Array(#"{"urls":["shopapp://product/1","shopapp://nowhere"]}"#.utf8))
            #expect(response.status == 200)
            let results = response.json["results"] as? [[String: Any]] ?? []
            #expect(results.count == 2)
            #expect(results.allSatisfy { $0["trace"] is [String: Any] })
        }
    }
}
