import Foundation
import SwitchboardTestSupport
import Testing

extension IntegrationTests {
    /// `/resolve`, `/healthz`, `/metrics`, `/openapi.yaml` and the error shapes (design.md §5, §7),
    /// against the demo config over loopback.
    @Suite("Public endpoints over loopback")
    struct ResolveEndpointTests {
        static let json = "application/json; charset=utf-8"

        @Test("a demo app link resolves to exactly the documented JSON")
        func exactJSON() async throws {
            let server = try await InProcessServer(config: .demo())
            let response = try server.client().resolve("shopapp://product/42")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == Self.json)
            #expect(
                response.text
                    == #"{"matched":true,"url":"shopapp://product/42","routeId":"product.detail","module":"product","#
                    + #""pattern":"/product/:id<int>","target":{"page":"ProductDetail"},"params":{"source":"deeplink","id":"42"}}"#)
        }

        @Test("an unmatched URL is a 404 with the expanded fallback")
        func notFoundWithFallback() async throws {
            let server = try await InProcessServer(config: .demo())
            let response = try server.client().resolve("shopapp://nowhere/x")
            #expect(response.status == 404)
            #expect(response.header("Content-Type") == Self.json)
            #expect(
                response.text
                    == #"{"matched":false,"url":"shopapp://nowhere/x","fallback":"https://m.shop.example.com/?from=shopapp%3A%2F%2Fnowhere%2Fx"}"#
            )
        }

        @Test(
            "a missing, empty or malformed url is a 400 invalid_url in the error shape",
            arguments: [
                "/resolve", "/resolve?", "/resolve?url=", "/resolve?other=1",
                "/resolve?url=no-scheme/product/42",
                "/resolve?url=shopapp%3A%2F%2Fproduct%2F4%202",  // a space inside the URL
                "/resolve?url=shopapp%3A%2F%2Fproduct%2F%ZZ",  // a bad escape in the query string
                "/resolve?url=shopapp%3A%2F%2Fproduct%2F%25C3%2528",  // a %-escape that is not UTF-8
            ])
        func badURL(target: String) async throws {
            let server = try await InProcessServer(config: .demo())
            let response = try server.client().request("GET", target)
            #expect(response.status == 400, "\(response.dump)")
            #expect(response.header("Content-Type") == Self.json)
            let error = try #require(response.json["error"] as? [String: Any], "\(response.text)")
            #expect(error["code"] as? String == "invalid_url")
            #expect((error["message"] as? String)?.isEmpty == false)
            #expect(response.json.count == 1 && error.count == 2)
        }

        @Test("repeated query keys become arrays; captures beat query params")
        func repeatedQueryKeys() async throws {
            let server = try await InProcessServer(config: .demo())
            let response = try server.client().resolve("shopapp://search/shoes?color=red&color=blue&size=9&query=ignored")
            #expect(response.status == 200)
            let params = try #require(response.json["params"] as? [String: Any])
            #expect(params["color"] as? [String] == ["red", "blue"])
            #expect(params["size"] as? String == "9")
            #expect(params["query"] as? String == "shoes")
            #expect(response.text.contains(#""params":{"color":["red","blue"],"size":"9","query":"shoes"}"#))
        }

        @Test("a rewrite reports rewrittenURL and ruleIds, chained rules in order")
        func rewrite() async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            let legacy = try client.resolve("https://shop.example.com/item.html?id=7")
            #expect(legacy.status == 200)
            #expect(
                legacy.text
                    == #"{"matched":true,"url":"https://shop.example.com/item.html?id=7","rewrittenURL":"shopapp://product/7","#
                    + #""ruleIds":["legacy-item-page"],"routeId":"product.detail","module":"product","pattern":"/product/:id<int>","#
                    + #""target":{"page":"ProductDetail"},"params":{"source":"deeplink","id":"7"}}"#)
            let chained = try client.resolve("shopapp://goods/5")
            #expect(chained.json["rewrittenURL"] as? String == "shopapp://product/5")
            #expect(chained.json["ruleIds"] as? [String] == ["goods-renamed"])
            #expect(chained.json["routeId"] as? String == "product.detail")
            // A rewrite from an app link to a web URL that a full pattern matches.
            let degraded = try client.resolve("shopapp://live/12")
            #expect(degraded.status == 200)
            #expect(degraded.json["routeId"] as? String == "marketing.mobile-web")
            #expect(degraded.json["ruleIds"] as? [String] == ["live-degraded-to-web"])
        }

        @Test("a request target over 8 KiB is a 414 url_too_long; just under is served")
        func urlTooLong() async throws {
            let server = try await InProcessServer(config: .demo())
            let long = "shopapp://search/" + String(repeating: "a", count: 8 * 1024)
            let response = try server.client().resolve(long)
            #expect(response.status == 414)
            #expect(response.header("Content-Type") == Self.json)
            #expect(response.errorCode == "url_too_long")
            let prefix = "/resolve?url=" + HTTPTestClient.queryValue("shopapp://search/")
            let fits = try server.client().request("GET", prefix + String(repeating: "a", count: 8 * 1024 - prefix.utf8.count))
            #expect(fits.status == 200)
        }

        @Test("PUT /resolve is a 405 with Allow listing GET, HEAD and the batch POST")
        func putResolve() async throws {
            let server = try await InProcessServer(config: .demo())
            let response = try server.client().request("PUT", "/resolve", body: Array(#"{"urls":[]}"#.utf8))
            #expect(response.status == 405)
            #expect(response.header("Allow") == "GET, HEAD, POST")
            #expect(response.header("Content-Type") == Self.json)
            #expect(response.errorCode == "method_not_allowed")
        }

        @Test("an unknown path is a 404 in the JSON error shape", arguments: ["/", "/nope", "/resolve/x", "/admin"])
        func unknownPath(path: String) async throws {
            let server = try await InProcessServer(config: .demo())
            let response = try server.client().admin("GET", path)
            #expect(response.status == 404)
            #expect(response.header("Content-Type") == Self.json)
            #expect(response.errorCode == "not_found")
        }

        @Test("/healthz")
        func healthz() async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            let response = try client.request("GET", "/healthz")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == Self.json)
            #expect(response.json["status"] as? String == "ok")
            let head = try client.request("HEAD", "/healthz")
            #expect(head.status == 200)
        }

        @Test("/metrics has every family, and the counters move with requests")
        func metrics() async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            let before = try client.request("GET", "/metrics")
            #expect(before.status == 200)
            #expect(before.header("Content-Type")?.hasPrefix("text/plain") == true)
            for family in [
                "switchboard_http_requests_total counter", "switchboard_http_request_duration_seconds histogram",
                "switchboard_routes gauge", "switchboard_rules gauge", "switchboard_reloads_total counter",
                "switchboard_rule_errors_total counter", "switchboard_route_hits_total counter",
                "switchboard_rule_hits_total counter",
            ] {
                #expect(before.text.contains("# TYPE \(family)\n"), "missing \(family)")
            }
            #expect(metricValue(before.text, "switchboard_routes") == 36)
            #expect(metricValue(before.text, "switchboard_rules") == 7)
            #expect(metricValue(before.text, #"switchboard_reloads_total{result="ok"}"#) == 0)
            #expect(metricValue(before.text, #"switchboard_reloads_total{result="failed"}"#) == 0)

            for _ in 0..<3 { #expect(try client.resolve("shopapp://goods/5").status == 200) }
            #expect(try client.resolve("shopapp://nowhere").status == 404)
            #expect(try client.request("GET", "/resolve").status == 400)
            let after = try client.request("GET", "/metrics").text
            #expect(metricValue(after, #"switchboard_http_requests_total{endpoint="resolve",status="200"}"#) == 3)
            #expect(metricValue(after, #"switchboard_http_requests_total{endpoint="resolve",status="404"}"#) == 1)
            #expect(metricValue(after, #"switchboard_http_requests_total{endpoint="resolve",status="400"}"#) == 1)
            #expect(metricValue(after, #"switchboard_http_requests_total{endpoint="metrics",status="200"}"#) == 1)
            #expect(metricValue(after, #"switchboard_http_request_duration_seconds_count{endpoint="resolve"}"#) == 5)
            #expect(metricValue(after, #"switchboard_http_request_duration_seconds_bucket{endpoint="resolve",le="+Inf"}"#) == 5)
            #expect(metricValue(after, #"switchboard_route_hits_total{route="product.detail"}"#) == 3)
            #expect(metricValue(after, #"switchboard_rule_hits_total{rule="goods-renamed"}"#) == 3)
            #expect(metricValue(after, "switchboard_rule_errors_total") == 0)
        }

        @Test("GET /openapi.yaml serves the repository's openapi.yaml")
        func openAPIDocument() async throws {
            let server = try await InProcessServer(config: .demo())
            let response = try server.client().request("GET", "/openapi.yaml")
            #expect(response.status == 200)
            #expect(response.header("Content-Type")?.hasPrefix("application/yaml") == true)
            #expect(response.body == Array(try Data(contentsOf: Repository.openAPI)))
        }
    }
}
