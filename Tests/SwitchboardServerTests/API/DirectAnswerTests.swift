import Foundation
import Logging
import SwitchboardCore
import SwitchboardHTTP
import SwitchboardTestSupport
import Testing

@testable import SwitchboardServer

/// `SwitchboardAPI.answerDirectly` (the HTTP server's direct answerer for `GET /resolve`)
/// against `SwitchboardAPI.handle` (the endpoint table): on every request it answers, the
/// same status, headers and body; on every request it declines, nothing recorded. The
/// requests are random mixes of the forms clients send and of the forms the lane must leave
/// to the table. Off the cooperative pool (`.blockingIO`): loading a config blocks the
/// calling thread while other threads decode the route files.
@Suite("GET /resolve: the direct answer against the endpoint table", .blockingIO)
struct DirectAnswerTests {
    /// A config with a rule that looks at the platform (the app headers join the cache key)
    /// and one allowed origin (its requests get CORS headers from the table).
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

    static func makeAPI(settings: String = "") throws -> (SwitchboardAPI, Metrics, TestConfig) {
        let config = try TestConfig.minimal(
            routes: ["shop.yaml": routes], rewrites: rewrites,
            settings: "domains: [shop.example.com]\ncors_allowed_origins: [\"https://console.example.com\"]\n" + settings)
        var logger = Logger(label: "direct-answer-tests")
        logger.logLevel = .critical
        let parts = ServingParts(
            loaded: try SnapshotLoader.load(configDirectory: config.directory, environment: [:]),
            configDirectory: config.directory, environment: { [:] }, logger: logger, clock: { 1_790_000_000 })
        return (parts.api, parts.metrics, config)
    }

    /// A link, percent-encoded for a query value as clients send it.
    static func randomEncodedLink(_ generator: inout some RandomNumberGenerator) -> String {
        let number = Int.random(in: 0..<100_000, using: &generator)
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

    /// A raw query: mostly the plain `url=…`, otherwise one of the forms the table answers.
    static func randomQuery(_ generator: inout some RandomNumberGenerator) -> String? {
        let link = randomEncodedLink(&generator)
        let forms: [String?] = [
            "url=\(link)", "url=\(link)", "url=\(link)", "url=\(link)", "url=\(link)", "url=\(link)", "url=\(link)",
            "url=\(link)", "&url=\(link)&", "url=\(link)&&",
            "url=", "url", "url=&url=\(link)", "url=\(link)&url=\(link)", "u%72l=\(link)", "URL=\(link)",
            "url=\(link)&explain=1", "url=\(link)&explain=0", "url=\(link)&explain=maybe",
            "url=\(link)&platform=ios", "platform=android&url=\(link)", "url=\(link)&x=%zz", "url=%zz", "url=%C3",
            "url=%E2%82", "url=\(link)%", "x=1", "", nil,
        ]
        return forms.randomElement(using: &generator) ?? nil
    }

    static func randomHeaders(_ generator: inout some RandomNumberGenerator) -> [HTTPRequest.Header] {
        var headers: [HTTPRequest.Header] = [("Host", "localhost")]
        let extras: [[HTTPRequest.Header]] = [
            [], [], [("X-App-Platform", "ios")], [("x-app-platform", "android")], [("X-App-Version", "5.3.0")],
            [("Origin", "https://console.example.com")], [("Origin", "https://other.example.com")],
        ]
        headers += extras.randomElement(using: &generator) ?? []
        return headers
    }

    /// Asks the lane, then the table, for `request`; expects the same answer whenever the
    /// lane gave one. Returns whether it did.
    static func compare(_ request: HTTPRequest, api: SwitchboardAPI) -> Bool {
        var body: [UInt8] = []
        let direct = api.answerDirectly(request, body: &body)
        let table = api.handle(request)
        let label = "\(request.method) \(request.target) \(request.headers)"
        switch direct {
        case .declined:
            #expect(body.isEmpty, "\(label): a declined request left a body")
            return false
        case .json(let status):
            #expect(status == table.status, "\(label)")
            #expect(table.headers.map(\.name) == ["Content-Type"], "\(label)")
            #expect(table.headers.map(\.value) == [HTTPResponse.jsonContentType], "\(label)")
            #expect(String(decoding: body, as: UTF8.self) == String(decoding: table.body, as: UTF8.self), "\(label)")
        case .written(let status, let headers):
            #expect(status == table.status, "\(label)")
            #expect(headers.map { "\($0.name): \($0.value)" } == table.headers.map { "\($0.name): \($0.value)" }, "\(label)")
            #expect(String(decoding: body, as: UTF8.self) == String(decoding: table.body, as: UTF8.self), "\(label)")
        case .response(let response):
            #expect(response.status == table.status, "\(label)")
            #expect(
                response.headers.map { "\($0.name): \($0.value)" } == table.headers.map { "\($0.name): \($0.value)" },
                "\(label)")
            #expect(response.body == table.body, "\(label)")
        }
        return true
    }

    @Test("random requests: every direct answer is the table's, on misses and on hits")
    func sameAsTable() throws {
        let (api, _, _) = try Self.makeAPI()
        var generator = SystemRandomNumberGenerator()
        var requests: [HTTPRequest] = (0..<1_500).map { _ in
            HTTPRequest(
                method: "GET", path: "/resolve", query: Self.randomQuery(&generator),
                headers: Self.randomHeaders(&generator), remoteAddress: "127.0.0.1")
        }
        // Asked again: stored at the second miss, then answered from the cache.
        requests += requests.prefix(300)
        requests += requests.prefix(300)
        var answered = 0
        for request in requests where Self.compare(request, api: api) { answered += 1 }
        // The plain form without an allowed Origin is most of the mix: the lane must take it.
        #expect(answered > requests.count / 8, "the lane answered \(answered) of \(requests.count)")
    }

    @Test("the plain form is answered directly; every other form and path is declined")
    func whatIsAnswered() throws {
        let (api, _, _) = try Self.makeAPI()
        func answers(
            _ query: String?, method: String = "GET", path: String = "/resolve", headers: [HTTPRequest.Header] = []
        ) -> Bool {
            var body: [UInt8] = []
            let request = HTTPRequest(method: method, path: path, query: query, headers: [("Host", "h")] + headers)
            if case .declined = api.answerDirectly(request, body: &body) { return false }
            return true
        }
        let link = "shopapp%3A%2F%2Fproduct%2F42"
        #expect(answers("url=\(link)"))
        #expect(answers("url=\(link)&"))
        #expect(answers("url=shopapp://nowhere"))  // unencoded, and nothing matches: a 404 answer
        #expect(answers("url=\(link)", headers: [("Origin", "https://other.example.com")]))  // not allowed: no CORS headers
        for declined in [
            "url=", "url", "x=1", "", "url=\(link)&explain=1", "url=\(link)&platform=ios", "u%72l=\(link)",
            "url=\(link)&url=\(link)", "url=%zz", "url=%C3", "url=not%20a%20url",
        ] {
            #expect(!answers(declined), "\(declined)")
        }
        #expect(!answers(nil))
        #expect(!answers("url=\(link)", method: "HEAD"))
        #expect(!answers("url=\(link)", path: "/resolve/"))
        #expect(!answers(nil, path: "/healthz"))
        #expect(!answers("url=\(link)", headers: [("Origin", "https://console.example.com")]))
    }

    @Test("the access log declines every request (the table logs it)")
    func accessLogDeclines() throws {
        let (api, _, _) = try Self.makeAPI(settings: "access_log: true\n")
        var body: [UInt8] = []
        let request = HTTPRequest(method: "GET", path: "/resolve", query: "url=shopapp%3A%2F%2Fproduct%2F42")
        guard case .declined = api.answerDirectly(request, body: &body) else {
            Issue.record("answered with the access log on")
            return
        }
    }

    @Test("a direct answer counts in the metrics as the table's does; a declined one not at all")
    func metrics() throws {
        let (direct, directMetrics, _) = try Self.makeAPI()
        let (table, tableMetrics, _) = try Self.makeAPI()
        let queries = [
            "url=shopapp%3A%2F%2Fproduct%2F42", "url=shopapp%3A%2F%2Fnowhere", "url=shopapp%3A%2F%2Fproduct%2F42",
            "url=shopapp%3A%2F%2Fproduct%2F42", "url=https%3A%2F%2Fwww.shop.example.com%2Fproduct%2F7",
        ]
        for query in queries {
            let request = HTTPRequest(method: "GET", path: "/resolve", query: query, headers: [("Host", "h")])
            var body: [UInt8] = []
            if case .declined = direct.answerDirectly(request, body: &body) { Issue.record("declined \(query)") }
            _ = table.handle(request)
        }
        var body: [UInt8] = []
        _ = direct.answerDirectly(HTTPRequest(method: "GET", path: "/resolve", query: "url=%zz"), body: &body)
        // Durations and the process's own figures differ; every other series must be equal.
        func series(_ metrics: Metrics) -> [Substring] {
            metrics.render().split(separator: "\n").filter {
                !$0.hasPrefix("#") && !$0.hasPrefix("process_") && !$0.contains("duration_seconds")
            }
        }
        #expect(series(directMetrics) == series(tableMetrics))
        #expect(directMetrics.render().contains(#"switchboard_resolve_cache_requests_total{result="hit"} 1"#))
    }
}
