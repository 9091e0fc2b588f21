import Foundation
import SwitchboardCore
import SwitchboardTestSupport
import Testing

@testable import SwitchboardServer

/// `GET /open` over a real loopback socket: 302 only to allowed targets, 404 `no_redirect`
/// otherwise, never echoing the input.
@Suite("GET /open (redirect mode)", .blockingIO)
struct OpenRedirectTests {
    static let routes = [
        "product": """
        module: product
        routes:
          - id: product.detail
            pattern: /product/:id
            web: "https://m.trusted.com/p/:id"
          - id: product.elsewhere
            pattern: /elsewhere/:id
            web: "https://m.trusted.com.evil.com/p/:id"
          - id: product.native
            pattern: /native
          - id: product.unicode
            pattern: /unicode/:id
            web: "https://m.trusted.com/café/:id"
        """
    ]

    static func settings(fallback: String?, extra: String = "") -> String {
        """
        schemes: [myapp]
        domains: [shop.trusted.com]
        redirect_allow: [m.trusted.com, "*.cdn.trusted.com"]
        \(fallback.map { "fallback: '\($0)'" } ?? "")
        \(extra)
        """
    }

    static func expectNoRedirect(_ response: HTTPTestResponse, input: String? = nil) throws {
        #expect(response.status == 404)
        #expect(response.header("Location") == nil)
        #expect(response.header("Cache-Control") == "no-store")
        let error = try #require(try response.object()["error"] as? [String: Any])
        #expect(error["code"] as? String == "no_redirect")
        if let input, !input.isEmpty {
            #expect(!response.text.contains(input))
        }
    }

    @Test("a matched route redirects to its webURL, uncached; captures cannot move the host")
    func matched() throws {
        let server = try AppsTestServer(settings: Self.settings(fallback: nil), routes: Self.routes)
        let response = try server.get("/open", url: "myapp://product/42")
        #expect(response.status == 302)
        #expect(response.header("Location") == "https://m.trusted.com/p/42")
        #expect(response.header("Cache-Control") == "no-store")
        let injected = try server.get("/open", url: "myapp://product/%2F%2Fevil.com%40x")
        #expect(injected.status == 302)
        let location = try #require(injected.header("Location"))
        #expect(location == "https://m.trusted.com/p/%2F%2Fevil.com%40x")
        #expect(try ParsedURL.parse(location).host == "m.trusted.com")
        let head = try server.request("HEAD", "/open?url=" + AppsTestServer.queryEncoded("myapp://product/1"))
        #expect(head.status == 302)
    }

    @Test("a route without web, or with a web host not allowed, is a 404")
    func matchedButNoTarget() throws {
        let server = try AppsTestServer(settings: Self.settings(fallback: "https://m.trusted.com/"), routes: Self.routes)
        try Self.expectNoRedirect(try server.get("/open", url: "myapp://native"))
        try Self.expectNoRedirect(try server.get("/open", url: "myapp://elsewhere/1"))
    }

    @Test("an unmatched URL goes to the expanded fallback, or is a 404 without one")
    func unmatched() throws {
        let with = try AppsTestServer(
            settings: Self.settings(fallback: "https://m.trusted.com/?from=$$url"), routes: Self.routes)
        let response = try with.get("/open", url: "myapp://nowhere")
        #expect(response.status == 302)
        #expect(response.header("Location") == "https://m.trusted.com/?from=myapp%3A%2F%2Fnowhere")
        let without = try AppsTestServer(settings: Self.settings(fallback: nil), routes: Self.routes)
        try Self.expectNoRedirect(try without.get("/open", url: "myapp://nowhere"), input: "nowhere")
    }

    @Test(
        "bad input is a 404 that does not echo the input",
        arguments: [
            "/open", "/open?url=", "/open?url=%2F%2Fevil.com", "/open?url=javascript%3Aalert(1)",
            "/open?url=a&url=b", "/open?url=https%3A%2F%2Fevil.com%00",
        ])
    func badInput(target: String) throws {
        let server = try AppsTestServer(settings: Self.settings(fallback: nil), routes: Self.routes)
        let response = try server.request("GET", target)
        try Self.expectNoRedirect(response)
        #expect(!response.text.contains("evil"))
    }

    @Test("a malformed query string is a 400 invalid_query, as on every endpoint, and redirects nowhere")
    func malformedQuery() throws {
        let server = try AppsTestServer(settings: Self.settings(fallback: nil), routes: Self.routes)
        let response = try server.request("GET", "/open?url=https%3A%2F%2Fevil.com%ZZ")
        #expect(response.status == 400)
        #expect(response.header("Location") == nil)
        let error = try #require(try response.object()["error"] as? [String: Any])
        #expect(error["code"] as? String == "invalid_query")
        #expect(!response.text.contains("evil"))
    }

    /// With `fallback: "$#fragment"` the redirect target is whatever the caller puts in the
    /// fragment (decoded): the allow-list is the only guard, and it must hold.
    @Test(
        "a hostile fallback target is refused",
        arguments: [
            "//evil.com", "https://m.trusted.com@evil.com/", "https:/\\evil.com", "https://m.trusted.com.evil.com/",
            "https://m.trusted.com./", "https://m.trusted.com%2Eevil.com/", "https://m.trusted.com\u{0}.evil.com/",
            "https://evil.com%00.m.trusted.com/", "javascript:alert(1)", "JAVASCRIPT:alert(1)",
            "data:text/html,<script>alert(1)</script>", "http://m.trusted.com/", "HTTPS://EVIL.COM/",
            "https://cdn.trusted.com/", "https://m.trusted.com\r\nSet-Cookie: a=b",
        ])
    func hostileFallback(target: String) throws {
        let server = try AppsTestServer(settings: Self.settings(fallback: "$#fragment"), routes: Self.routes)
        let input = "myapp://nowhere#" + AppsTestServer.queryEncoded(target)
        let response = try server.get("/open", url: input)
        try Self.expectNoRedirect(response, input: target)
    }

    @Test(
        "allowed fallback targets redirect, the location as parsed",
        arguments: ["https://m.trusted.com/x", "HTTPS://M.TRUSTED.COM/x", "https://a.cdn.trusted.com/y", "myapp://product/1"])
    func allowedFallback(target: String) throws {
        let server = try AppsTestServer(settings: Self.settings(fallback: "$#fragment"), routes: Self.routes)
        let response = try server.get("/open", url: "myapp://nowhere#" + AppsTestServer.queryEncoded(target))
        #expect(response.status == 302)
        #expect(response.header("Location") == target)
    }

    /// A `Location` is a URI (RFC 9110 §10.2.2): the non-ASCII bytes a target takes from the
    /// input URL, the fallback or the web template are percent-encoded as UTF-8 (RFC 3987
    /// §3.1), and escapes already there are kept as they are.
    @Test(
        "non-ASCII characters of the target are percent-encoded in Location, escapes kept",
        arguments: [
            ("https://m.trusted.com/app$path", "myapp://x/é", "https://m.trusted.com/app/%C3%A9"),
            ("https://m.trusted.com/app$path", "myapp://x/%C3%A9/é", "https://m.trusted.com/app/%C3%A9/%C3%A9"),
            ("https://m.trusted.com/?$query", "myapp://x?q=%C3%A9é", "https://m.trusted.com/?q=%C3%A9%C3%A9"),
            ("https://m.trusted.com/$fragment", "myapp://x#é", "https://m.trusted.com/%C3%A9"),
            ("https://m.trusted.com/?from=$url", "myapp://x/é", "https://m.trusted.com/?from=myapp://x/%C3%A9"),
            ("$#fragment", "myapp://x#" + AppsTestServer.queryEncoded("https://m.trusted.com/ça"), "https://m.trusted.com/%C3%A7a"),
            ("$#fragment", "myapp://x#" + AppsTestServer.queryEncoded("myapp://café"), "myapp://caf%C3%A9"),
            (nil, "myapp://product/é", "https://m.trusted.com/p/%C3%A9"),
            (nil, "myapp://product/%2F%C3%A9%25", "https://m.trusted.com/p/%2F%C3%A9%25"),
            (nil, "myapp://unicode/é", "https://m.trusted.com/caf%C3%A9/%C3%A9"),
        ] as [(String?, String, String)])
    func nonASCIILocation(fallback: String?, input: String, expected: String) throws {
        let server = try AppsTestServer(settings: Self.settings(fallback: fallback), routes: Self.routes)
        let response = try server.get("/open", url: input)
        #expect(response.status == 302)
        #expect(response.header("Location") == expected)
    }

    @Test("http targets need redirect_allow_http")
    func httpOptIn() throws {
        let server = try AppsTestServer(
            settings: Self.settings(fallback: "$#fragment", extra: "redirect_allow_http: true"), routes: Self.routes)
        let response = try server.get("/open", url: "myapp://nowhere#" + AppsTestServer.queryEncoded("http://m.trusted.com/"))
        #expect(response.status == 302)
        #expect(response.header("Location") == "http://m.trusted.com/")
    }

    @Test("a bad redirect_allow entry fails the load, naming the key")
    func badAllowEntry() throws {
        let directory = try TemporaryDirectory()
        try directory.write("switchboard.yaml", "redirect_allow: ['https://m.trusted.com']\n")
        do {
            _ = try ConfigDirectory.load(from: directory.path)
            Issue.record("loaded")
        } catch {
            #expect(error.description.contains("redirect_allow"))
        }
    }
}
