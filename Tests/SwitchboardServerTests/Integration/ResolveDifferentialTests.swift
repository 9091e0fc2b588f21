import Foundation
import SwitchboardCore
import SwitchboardTestSupport
import Testing

@testable import SwitchboardServer

/// `GET /resolve` over real sockets against the resolver in process, for many random links over
/// the demo config. The served path (the request path, the cache) must give the same status and
/// the same bytes, asked once (a miss), twice (stored) and a third time (from the cache).
extension IntegrationTests {
    @Suite("GET /resolve against the resolver in process")
    struct ResolveDifferentialTests {
        /// A random link of the demo app's shapes: app links, web links the rules rewrite,
        /// links with percent-escapes, `+`, repeated query keys, and links nothing matches.
        static func randomLink(_ generator: inout some RandomNumberGenerator) -> String {
            let words = ["shoes", "red%20shoes", "a+b", "%E2%82%AC", "x", "caf%C3%A9", "42", "-1", "1e3"]
            func word() -> String { words.randomElement(using: &generator) ?? "x" }
            func number() -> Int { Int.random(in: 0..<100_000, using: &generator) }
            let queries = ["", "?ref=push", "?cid=\(number())&utm_source=mail", "?a=1&a=2", "?q=\(word())", "?ref="]
            let query = queries.randomElement(using: &generator) ?? ""
            let shapes = [
                "shopapp://product/\(number())\(query)",
                "shopapp://product/\(word())\(query)",
                "shopapp://search/\(word())/page/\(number() % 9)\(query)",
                "shopapp://cart/add/\(number())/\(number() % 5)",
                "shopapp://goods/\(number())\(query)",
                "shopapp://live/\(number())",
                "https://www.shop.example.com/search/\(word())\(query)",
                "https://shop.example.com/item.html?id=\(number())&ref=\(word())",
                "https://shop.example.com/campaign/2026-double11.html\(query)",
                "https://help.shop.example.com/faq\(query)",
                "shopapp://nothing/\(word())/\(number())\(query)",
                "https://elsewhere.example.org/\(word())",
            ]
            return shapes.randomElement(using: &generator) ?? "shopapp://x"
        }

        @Test("random links: the same status and bytes as in process, on a miss and on a hit")
        func sameAsReference() async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            let application = server.application
            var generator = SystemRandomNumberGenerator()
            var links = (0..<300).map { _ in Self.randomLink(&generator) }
            links += links.prefix(50)  // asked again: stored, then answered from the cache
            links += links.prefix(50)
            for link in links {
                let served = try client.resolve(link)
                let context = RequestContext(now: application.context.clock())
                let resolution = try application.context.snapshot.resolver.resolve(link, context: context)
                #expect(served.status == (resolution.matched ? 200 : 404), "\(link)")
                #expect(
                    served.text == String(decoding: resolution.jsonBytes, as: UTF8.self), "\(link)")
            }
        }
    }
}
