import Foundation
import Logging
import SwitchboardCore
import SwitchboardHTTP
import SwitchboardTestSupport
import Testing

@testable import SwitchboardServer

/// `GET /resolve` through the one request path: the forms of its query and their answers, the
/// body written into a reused buffer, and the same answers, headers and metrics over real
/// sockets. Off the cooperative pool (`.blockingIO`): loading a config blocks the calling
/// thread while other threads decode the route files.
@Suite("GET /resolve: the one request path", .blockingIO)
struct ResolveRequestTests {
    /// A config with a rule that looks at the platform (the app headers join the cache key)
    /// and one allowed origin (its requests get CORS headers).
    static let rewrites = """
        rules:
          - id: ios-pdp
            match: '^shopapp://product/([0-9]+)$'
            target: 'shopapp://product/$1?from=ios'
            when: { platform: [ios] }
          - id: web-to-app
            match: '^https://www\\.shop\\.example\\.com/(.*)$'
            target: 'shopapp://$1'
        """
    static let routes = """
        module: shop
        routes:
          - { id: product, pattern: "/product/:id<int>", target: { page: Product } }
          - { id: search, pattern: "/search/:q", target: { page: Search } }
          - { id: any, pattern: "/any/*rest", target: { page: Any } }
        """
    static let settings = "domains: [shop.example.com]\ncors_allowed_origins: [\"https://console.example.com\"]\n"

    static func config() throws -> TestConfig {
        try TestConfig.minimal(routes: ["shop.yaml": routes], rewrites: rewrites, settings: settings)
    }

    static func makeAPI(_ config: TestConfig) throws -> (SwitchboardAPI, Metrics) {
        var logger = Logger(label: "resolve-request-tests")
        logger.logLevel = .critical
        let parts = try ServingParts(
            loaded: try SnapshotLoader.load(configDirectory: config.directory, environment: [:]),
            configDirectory: config.directory, environment: { [:] }, logger: logger, clock: { 1_790_000_000 })
        return (parts.api, parts.metrics)
    }

    static func errorCode(_ body: [UInt8]) -> String? {
        let text = String(decoding: body, as: UTF8.self)
        guard let range = text.range(of: #""code":""#) else { return nil }
        return String(text[range.upperBound...].prefix { $0 != "\"" })
    }

    static let link = "shopapp%3A%2F%2Fproduct%2F42"

    @Test(
        "every form of the query gets its answer",
        arguments: [
            ("url=\(link)", 200, nil), ("url=\(link)&", 200, nil), ("&url=\(link)&&", 200, nil),
            ("u%72l=\(link)", 200, nil), ("url=shopapp://nowhere", 404, nil), ("url=\(link)&explain=0", 200, nil),
            ("url=\(link)&platform=ios", 200, nil), ("url=", 400, "invalid_url"), ("url", 400, "invalid_url"),
            ("x=1", 400, "invalid_url"), ("", 400, "invalid_url"), ("url=\(link)&url=\(link)", 400, "invalid_url"),
            ("url=&url=\(link)", 400, "invalid_url"), ("url=\(link)&explain=maybe", 400, "invalid_parameter"),
            ("url=\(link)&explain=1&explain=1", 400, "invalid_parameter"),
            ("url=\(link)&device=a&device=b", 400, "invalid_parameter"), ("url=%zz", 400, "invalid_url"),
            ("url=\(link)&x=%zz", 400, "invalid_url"), ("url=%C3", 400, "invalid_url"),
            ("url=\(link)&n%C3=1", 400, "invalid_url"), ("url=not%20a%20url", 400, "invalid_url"),
        ] as [(String, Int, String?)])
    func forms(query: String, status: Int, code: String?) throws {
        let config = try Self.config()
        let (api, _) = try Self.makeAPI(config)
        let response = api.handle(HTTPRequest(method: "GET", path: "/resolve", query: query, headers: [("Host", "h")]))
        #expect(response.status == status, "\(query)")
        #expect(Self.errorCode(response.body) == code, "\(query): \(String(decoding: response.body, as: UTF8.self))")
        #expect(response.isJSON)
    }

    @Test("a malformed query says where, as the query parser does, however little of it the endpoint reads")
    func malformedQueryMessage() throws {
        let config = try Self.config()
        let (api, _) = try Self.makeAPI(config)
        for query in ["url=\(Self.link)&x=%zz", "url=%C3%28", "url=%ZZ", "url=a%2", "a%2=1&url=\(Self.link)", "url=\(Self.link)&%E2%82=1"] {
            let response = api.handle(HTTPRequest(method: "GET", path: "/resolve", query: query))
            var expected = "no error"
            do {
                _ = try ParsedURL.queryItems(ofRawQuery: query)
            } catch {
                expected = "the query string is malformed: \(error.description)"
            }
            let body = String(decoding: response.body, as: UTF8.self)
            #expect(response.status == 400, "\(query)")
            #expect(body.contains(String(decoding: JSONValue.string(expected).jsonBytes, as: UTF8.self)), "\(query): \(body)")
        }
    }

    @Test("answers written into one reused buffer are each exactly their own, on misses and on hits")
    func reusedBuffer() throws {
        let config = try Self.config()
        let (api, _) = try Self.makeAPI(config)
        let (fresh, _) = try Self.makeAPI(config)
        let queries = [
            "url=" + String(repeating: "shopapp%3A%2F%2Fany%2Fa", count: 40), "url=\(Self.link)", "url=%zz",
            "url=\(Self.link)", "url=\(Self.link)", "url=shopapp%3A%2F%2Fnowhere", "url=\(Self.link)&explain=1",
        ]
        var body: [UInt8] = []
        for query in queries {
            let request = HTTPRequest(method: "GET", path: "/resolve", query: query, headers: [("Host", "h")])
            body.removeAll(keepingCapacity: true)
            let response = api.handle(request, body: &body)
            let expected = fresh.handle(request)
            #expect(response.status == expected.status, "\(query)")
            #expect(response.body == expected.body, "\(query)")
        }
    }

    /// A link, percent-encoded for a query value as clients send it.
    static func randomEncodedLink(_ generator: inout some RandomNumberGenerator) -> String {
        let number = Int.random(in: 0..<100, using: &generator)
        let links = [
            "shopapp://product/\(number)", "shopapp://product/\(number)?utm_source=push&cid=\(number)",
            "shopapp://search/red shoes", "shopapp://search/caf\u{E9}", "shopapp://any/a/b/\(number)",
            "https://www.shop.example.com/product/\(number)", "https://shop.example.com/nothing/\(number)",
            "shopapp://nowhere", "not a url", "shopapp://product/\(number)#frag", "//x", "shopapp://%zz",
        ]
        let link = links.randomElement(using: &generator) ?? "shopapp://x"
        // Now and then with `+` for the spaces, as HTML forms encode them.
        let encoded = link.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? link
        return Bool.random(using: &generator) ? encoded.replacingOccurrences(of: "%20", with: "+") : encoded
    }

    /// A raw query: mostly the plain `url=…`, otherwise one of the rarer forms.
    static func randomQuery(_ generator: inout some RandomNumberGenerator) -> String {
        let link = randomEncodedLink(&generator)
        let forms = [
            "url=\(link)", "url=\(link)", "url=\(link)", "url=\(link)", "url=\(link)", "url=\(link)", "&url=\(link)&",
            "url=", "url=\(link)&url=\(link)", "u%72l=\(link)", "URL=\(link)", "url=\(link)&explain=1",
            "url=\(link)&explain=maybe", "url=\(link)&platform=ios", "platform=android&url=\(link)", "url=\(link)&x=%zz",
            "url=%C3", "x=1", "",
        ]
        return forms.randomElement(using: &generator) ?? ""
    }

    @Test("over loopback: every answer is the endpoint's, status, headers and body; the metrics count each once")
    func overLoopback() async throws {
        let config = try Self.config()
        let server = try await InProcessServer(config: config)
        let (reference, _) = try Self.makeAPI(config)
        let client = try server.client()
        var generator = SystemRandomNumberGenerator()
        var requests: [(query: String, headers: [(String, String)])] = (0..<300).map { _ in
            let extras: [[(String, String)]] = [
                [], [], [("X-App-Platform", "ios")], [("Origin", "https://console.example.com")],
                [("Origin", "https://other.example.com")],
            ]
            return (Self.randomQuery(&generator), extras.randomElement(using: &generator) ?? [])
        }
        // Asked again: stored at the second miss, then answered from the cache.
        requests += requests.prefix(100)
        requests += requests.prefix(100)
        var resolved = 0
        for (query, headers) in requests {
            // The same request id on both sides, so that the answers' X-Request-Id agree too.
            let headers = headers + [("X-Request-Id", "differential-\(resolved)")]
            let sent = try client.request("GET", "/resolve?" + query, headers: headers)
            let expected = reference.handle(
                HTTPRequest(method: "GET", path: "/resolve", query: query, headers: [("Host", "localhost")] + headers))
            let label = "\(query) \(headers)"
            #expect(sent.status == expected.status, "\(label)")
            if !query.contains("explain=1") { #expect(sent.body == expected.body, "\(label)") }
            for header in expected.allHeaders {
                #expect(sent.header(header.name) == header.value, "\(label): \(header.name)")
            }
            #expect(sent.header("Content-Length") == "\(sent.body.count)")
            if sent.status != 400 { resolved += 1 }
        }
        let metrics = try client.request("GET", "/metrics").text
        let counted = metrics.split(separator: "\n")
            .filter { $0.hasPrefix(#"switchboard_http_requests_total{endpoint="resolve","#) }
            .compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }
            .reduce(0, +)
        #expect(counted == requests.count)
        let cache = metrics.split(separator: "\n")
            .filter { $0.hasPrefix("switchboard_resolve_cache_requests_total") }
            .compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }
            .reduce(0, +)
        // Every answered request but explain counts once in the cache's series.
        #expect(cache <= resolved)
        #expect(cache > 0)
    }
}
