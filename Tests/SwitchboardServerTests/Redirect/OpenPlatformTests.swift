import Foundation
import SwitchboardCore
import SwitchboardTestSupport
import Testing

@testable import SwitchboardServer

/// `GET /open` by platform over a real socket, with real `User-Agent` strings: crawlers get
/// the preview page, Android an intent, iOS the web page or the App Store, the rest the web page.
@Suite("open by platform", .blockingIO)
struct OpenPlatformTests {
    static let iPhoneSafari =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
    static let androidChrome =
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.122 Mobile Safari/537.36"
    static let desktopChrome =
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36"
    static let slackbot = "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)"
    static let facebook = "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)"
    static let whatsApp = "WhatsApp/2.23.20.0 A"
    static let iMessage =
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0"
    static let discord = "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)"

    static let fingerprint = Array(repeating: "AB", count: 32).joined(separator: ":")
    static let settings = """
        schemes: [myapp]
        domains: [shop.example.com]
        redirect_allow: [m.example.com, apps.apple.com, play.google.com, promo.example.com]
        fallback: "https://m.example.com/?from=$$url"
        link_preview: {title: "Example Shop", description: "Everything <for> \\"you\\"", image: "https://m.example.com/logo.png"}
        apps:
          ios: [{appID: "ABCDE12345.com.example.shop", store_url: "https://apps.apple.com/app/id123"}]
          android: [{package: com.example.shop, sha256: ["\(fingerprint)"], store_url: "https://play.google.com/store/apps/details?id=com.example.shop"}]
        """
    static let routes = [
        "shop": """
        module: shop
        routes:
          - id: product
            pattern: /product/:id
            web: https://m.example.com/p/:id
            preview: {title: "<script>alert(1)</script> & shoes", image: "https://m.example.com/p.png?a=1&b=2"}
          - id: cart
            pattern: /cart
          - id: promo
            pattern: /promo/:code
            web: https://m.example.com/promo/:code
            open: {ios: "https://promo.example.com/ios", android: "https://promo.example.com/android"}
          - id: help
            pattern: /help
            app: false
        """
    ]

    static func open(_ server: AppsTestServer, _ url: String, agent: String?, platform: String? = nil) throws -> HTTPTestResponse {
        var target = "/open?url=\(AppsTestServer.queryEncoded(url))"
        if let platform { target += "&platform=\(platform)" }
        return try server.request("GET", target, headers: agent.map { [("User-Agent", $0)] } ?? [])
    }

    @Test("link-preview crawlers get 200 text/html with OpenGraph and Twitter tags, escaped, a canonical link, no script")
    func crawlers() throws {
        let server = try AppsTestServer(settings: Self.settings, routes: Self.routes)
        for agent in [Self.slackbot, Self.facebook, Self.whatsApp, Self.iMessage, Self.discord] {
            let response = try Self.open(server, "https://shop.example.com/product/42?x=%22%3E%3Cb%3E", agent: agent)
            #expect(response.status == 200, "\(agent)")
            #expect(response.header("Content-Type") == "text/html; charset=utf-8")
            #expect(response.header("Content-Security-Policy")?.contains("default-src 'none'") == true)
            let html = response.text
            #expect(html.contains(#"<meta property="og:title" content="&lt;script&gt;alert(1)&lt;/script&gt; &amp; shoes">"#))
            #expect(html.contains(#"<meta name="twitter:title" content="&lt;script&gt;alert(1)&lt;/script&gt; &amp; shoes">"#))
            #expect(html.contains(#"<meta property="og:image" content="https://m.example.com/p.png?a=1&amp;b=2">"#))
            #expect(html.contains(#"<meta property="og:description" content="Everything &lt;for&gt; &quot;you&quot;">"#))
            #expect(html.contains(#"<link rel="canonical" href="https://m.example.com/p/42">"#))
            #expect(!html.lowercased().contains("<script"))
            #expect(!html.contains("<b>"))
        }
        let cart = try Self.open(server, "https://shop.example.com/cart", agent: Self.slackbot)
        #expect(cart.status == 404, "no page to preview: the same refusal as a browser gets")
        let unmatched = try Self.open(server, "https://shop.example.com/nothing", agent: Self.slackbot)
        #expect(unmatched.status == 200)
        #expect(unmatched.text.contains(#"<meta property="og:title" content="Example Shop">"#))
    }

    @Test("Android gets an intent for the custom-scheme link, falling back to the web page, else the Play Store")
    func android() throws {
        let server = try AppsTestServer(settings: Self.settings, routes: Self.routes)
        let product = try Self.open(server, "https://shop.example.com/product/42?ref=qr", agent: Self.androidChrome)
        #expect(product.status == 302)
        #expect(
            product.header("Location")
                == "intent://product/42?ref=qr#Intent;scheme=myapp;package=com.example.shop;S.browser_fallback_url=https%3A%2F%2Fm.example.com%2Fp%2F42;end"
        )
        let cart = try Self.open(server, "myapp://cart", agent: Self.androidChrome)
        #expect(
            cart.header("Location")
                == "intent://cart#Intent;scheme=myapp;package=com.example.shop;S.browser_fallback_url=https%3A%2F%2Fplay.google.com%2Fstore%2Fapps%2Fdetails%3Fid%3Dcom.example.shop;end"
        )
        let help = try Self.open(server, "https://shop.example.com/help", agent: Self.androidChrome)
        #expect(help.status == 404, "app: false without a page: nothing to open")
        let unmatched = try Self.open(server, "https://shop.example.com/nothing", agent: Self.androidChrome)
        #expect(unmatched.header("Location")?.hasPrefix("https://m.example.com/?from=") == true)
        let promo = try Self.open(server, "https://shop.example.com/promo/spring", agent: Self.androidChrome)
        #expect(promo.header("Location") == "https://promo.example.com/android")
    }

    @Test("iOS gets the web page when there is one, else the App Store; desktop the web page, else the fallback")
    func iosAndDesktop() throws {
        let server = try AppsTestServer(settings: Self.settings, routes: Self.routes)
        #expect(
            try Self.open(server, "https://shop.example.com/product/42", agent: Self.iPhoneSafari).header("Location")
                == "https://m.example.com/p/42")
        #expect(
            try Self.open(server, "https://shop.example.com/cart", agent: Self.iPhoneSafari).header("Location")
                == "https://apps.apple.com/app/id123")
        #expect(
            try Self.open(server, "https://shop.example.com/promo/x", agent: Self.iPhoneSafari).header("Location")
                == "https://promo.example.com/ios")
        #expect(
            try Self.open(server, "https://shop.example.com/product/42", agent: Self.desktopChrome).header("Location")
                == "https://m.example.com/p/42")
        #expect(try Self.open(server, "https://shop.example.com/cart", agent: Self.desktopChrome).status == 404)
        #expect(
            try Self.open(server, "https://shop.example.com/promo/x", agent: Self.desktopChrome).header("Location")
                == "https://m.example.com/promo/x")
        #expect(try Self.open(server, "https://shop.example.com/cart", agent: nil).status == 404)
    }

    @Test("platform= overrides the User-Agent; an unknown value leaves it to the User-Agent")
    func platformParameter() throws {
        let server = try AppsTestServer(settings: Self.settings, routes: Self.routes)
        #expect(
            try Self.open(server, "https://shop.example.com/cart", agent: Self.desktopChrome, platform: "ios").header("Location")
                == "https://apps.apple.com/app/id123")
        #expect(
            try Self.open(server, "https://shop.example.com/cart", agent: Self.desktopChrome, platform: "Android").header("Location")?
                .hasPrefix("intent://cart#Intent;") == true)
        #expect(try Self.open(server, "https://shop.example.com/product/1", agent: Self.slackbot, platform: "web").status == 302)
        #expect(try Self.open(server, "https://shop.example.com/product/1", agent: Self.desktopChrome, platform: "preview").status == 200)
        #expect(
            try Self.open(server, "https://shop.example.com/cart", agent: Self.iPhoneSafari, platform: "tv").header("Location")
                == "https://apps.apple.com/app/id123")
    }

    @Test(
        "the User-Agent table",
        arguments: [
            (iPhoneSafari, OpenPlatform.ios), (androidChrome, .android), (desktopChrome, .web), (slackbot, .preview), (facebook, .preview),
            (whatsApp, .preview), (iMessage, .preview), (discord, .preview),
            ("Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148", .ios),
            ("TelegramBot (like TwitterBot)", .preview),
            ("LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)", .preview),
            ("curl/8.5.0", .web),
        ])
    func userAgents(agent: String, expected: OpenPlatform) {
        #expect(OpenPlatform(parameter: nil, userAgent: agent) == expected)
    }

    @Test("a store_url that redirect_allow refuses is a load error naming the app")
    func storeNotAllowed() throws {
        let directory = try TemporaryDirectory()
        try directory.write(
            "switchboard.yaml",
            """
            redirect_allow: [m.example.com]
            apps: {ios: [{appID: "ABCDE12345.com.example.shop", store_url: "https://apps.apple.com/app/id1"}]}

            """)
        let issues = try #require(throws: ConfigIssues.self) { try ConfigDirectory.load(from: directory.path) }
        #expect(
            issues.description.contains(
                "apps.ios 'ABCDE12345.com.example.shop': store_url 'https://apps.apple.com/app/id1' is not allowed by redirect_allow"))
    }
}
