import Foundation
import SwitchboardCore
import SwitchboardTestSupport
import Testing

@testable import SwitchboardServer

/// `switchboard applinks check` against a live server and against files, and
/// `switchboard resolve --open --platform`, run as subprocesses.
@Suite("applinks check", .blockingIO)
struct AppLinksCommandTests {
    static let fingerprint = Array(repeating: "AB", count: 32).joined(separator: ":")
    static let settings = """
        schemes: [myapp]
        domains: [shop.example.com, 127.0.0.1]
        redirect_allow: [m.example.com, play.google.com]
        apps:
          ios: [{appID: "ABCDE12345.com.example.shop"}]
          android: [{package: com.example.shop, sha256: ["\(fingerprint)"], store_url: "https://play.google.com/store/apps/details?id=com.example.shop"}]
        """
    static let routes = [
        "shop": """
        module: shop
        routes:
          - id: product
            pattern: /product/:id
            web: https://m.example.com/p/:id
          - id: docs
            pattern: /docs/*rest
          - id: help
            pattern: /help
            app: false
        """
    ]

    @Test("the files a live server publishes agree with its config: exit 0")
    func live() throws {
        let server = try AppsTestServer(settings: Self.settings, routes: Self.routes)
        let work = try TemporaryDirectory()
        let run = try CLITests.run(
            ["applinks", "check", "--config", server.directory.path, "--url", "http://127.0.0.1:\(server.port)"], in: work)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("agree"))
    }

    @Test("files as published before dynamic rules differ: exit 1, each path listed both ways")
    func drift() throws {
        let server = try AppsTestServer(settings: Self.settings, routes: Self.routes)
        let work = try TemporaryDirectory()
        try work.write(
            "aasa.json",
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.shop"],"components":[{"/":"/product/*"},{"/":"/help","exclude":true}]}]}}"#
        )
        try work.write(
            "assetlinks.json",
            #"[{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app","package_name":"com.example.shop","sha256_cert_fingerprints":["\#(Self.fingerprint)"]}}]"#
        )
        let run = try CLITests.run(
            [
                "applinks", "check", "--config", server.directory.path, "--url", "https://shop.example.com", "--aasa",
                "\(work.path)/aasa.json", "--assetlinks", "\(work.path)/assetlinks.json",
            ], in: work)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("ios ABCDE12345.com.example.shop: /product/sample/sample opens the app but should not"))
        #expect(run.stdout.contains("ios ABCDE12345.com.example.shop: /docs/sample/rest does not open the app but should"))
        #expect(run.stdout.contains("android com.example.shop: /help opens the app but should not"))
        #expect(!run.stdout.contains("/product/sample opens"))
    }

    @Test("bad input exits 2; a host that cannot be reached exits 3")
    func badInput() throws {
        let server = try AppsTestServer(settings: Self.settings, routes: Self.routes)
        let work = try TemporaryDirectory()
        try work.write("broken.json", "{not json")
        let config = server.directory.path
        let notJSON = try CLITests.run(
            [
                "applinks", "check", "--config", config, "--url", "https://shop.example.com", "--aasa", "\(work.path)/broken.json",
                "--assetlinks", "\(work.path)/broken.json",
            ],
            in: work)
        #expect(notJSON.status == 2, "\(notJSON.stderr)")
        #expect(notJSON.stderr.contains("is not JSON"))
        #expect(try CLITests.run(["applinks", "check", "--config", config, "--url", "not a url"], in: work).status == 2)
        #expect(
            try CLITests.run(["applinks", "check", "--config", "\(work.path)/missing", "--url", "https://a.example"], in: work).status == 2)
        let unreachable = try CLITests.run(["applinks", "check", "--config", config, "--url", "http://127.0.0.1:1"], in: work)
        #expect(unreachable.status == 3, "\(unreachable.stderr)")
    }

    @Test("resolve --open --platform prints where /open sends that platform")
    func resolveOpen() throws {
        let server = try AppsTestServer(settings: Self.settings, routes: Self.routes)
        let work = try TemporaryDirectory()
        let config = server.directory.path
        let android = try CLITests.run(
            ["resolve", "--config", config, "--open", "--platform", "android", "https://shop.example.com/docs/a"], in: work)
        #expect(android.status == 0, "\(android.stderr)")
        #expect(
            android.stdout.contains(
                #""location":"intent://docs/a#Intent;scheme=myapp;package=com.example.shop;S.browser_fallback_url=https%3A%2F%2Fplay.google.com%2Fstore%2Fapps%2Fdetails%3Fid%3Dcom.example.shop;end","via":"intent""#
            ))
        let web = try CLITests.run(
            ["resolve", "--config", config, "--open", "--platform", "web", "https://shop.example.com/product/7"], in: work)
        #expect(web.stdout.contains(#""status":302,"location":"https://m.example.com/p/7","via":"web""#), "\(web.stdout)")
        let refused = try CLITests.run(["resolve", "--config", config, "--open", "https://shop.example.com/help"], in: work)
        #expect(refused.status == 1)
        #expect(refused.stdout.contains(#""status":404"#))
        #expect(try CLITests.run(["resolve", "--config", config, "--platform", "preview", "myapp://x"], in: work).status == 2)
    }
}
