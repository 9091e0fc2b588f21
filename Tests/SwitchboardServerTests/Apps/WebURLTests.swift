import Foundation
import SwitchboardCore
import SwitchboardStore
import SwitchboardTestSupport
import Testing

@testable import SwitchboardServer

/// A route's `web` URL: loaded from route files, validated naming the route, and returned by
/// `GET /resolve` as `webURL` over a real socket.
@Suite("route web URLs", .blockingIO)
struct WebURLTests {
    static let settings = "schemes: [myapp]\ndomains: [shop.example.com]"
    static let product = """
        module: product
        routes:
          - id: product.detail
            pattern: /product/:id
            target: { page: ProductDetail }
            params: { source: deeplink }
            web: "https://m.example.com/p/:id?src=:source"
          - id: product.list
            pattern: /products
        """

    @Test("GET /resolve returns webURL after params, with the capture percent-encoded")
    func resolve() throws {
        let server = try AppsTestServer(settings: Self.settings, routes: ["product": Self.product])
        let response = try server.get("/resolve", url: "myapp://product/%2F%2Fevil.com@x")
        #expect(response.status == 200)
        #expect(response.text.hasSuffix(#","webURL":"https://m.example.com/p/%2F%2Fevil.com%40x?src=deeplink"}"#))
        let plain = try server.get("/resolve", url: "myapp://products")
        #expect(try plain.object()["webURL"] == nil)
    }

    @Test("a bad web template fails the load, naming the file and the route id")
    func invalidAtLoad() throws {
        let directory = try TemporaryDirectory()
        try directory.write(
            "routes.d/product.yaml",
            """
            module: product
            routes:
              - id: product.detail
                pattern: /product/:id
                web: "https://m.example.com/p/:sku"
            """)
        let config = try ConfigDirectory.load(from: directory.path)
        let issues: [ConfigIssue]
        do {
            _ = try Snapshot.build(config: config, admin: AdminState())
            issues = []
        } catch {
            issues = error.issues
        }
        let issue = try #require(issues.first)
        #expect(issues.count == 1)
        #expect(issue.file?.hasSuffix("product.yaml") == true)
        #expect(issue.item == "product.detail")
        #expect(issue.code == "invalid_web")
        #expect(issue.message.contains(":sku"))
    }

    @Test("web must be a string and unknown route keys are still refused")
    func strictKeys() throws {
        let directory = try TemporaryDirectory()
        try directory.write(
            "routes.d/product.yaml",
            """
            module: product
            routes:
              - id: product.detail
                pattern: /product/:id
                webb: "https://m.example.com/p/:id"
            """)
        #expect(throws: ConfigIssues.self) { try ConfigDirectory.load(from: directory.path) }
        let decoded = try JSONDecoder().decode(
            RouteDefinition.self, from: Data(#"{"id":"a","pattern":"/a","web":"https://m.example.com/a"}"#.utf8))
        #expect(decoded.web == "https://m.example.com/a")
        let encoded = String(decoding: try JSONEncoder().encode(decoded), as: UTF8.self)
        #expect(encoded.contains(#""web":"https:\/\/m.example.com\/a""#))
    }
}
