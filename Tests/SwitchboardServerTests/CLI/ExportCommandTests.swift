import Foundation
import SwitchboardCore
import SwitchboardStore
import SwitchboardTestSupport
import Testing

@testable import SwitchboardServer

/// `switchboard export`: the admin state pushed at run time, written as config files that a
/// fresh server with an empty store resolves exactly as the original config and admin state did.
@Suite(.blockingIO)
struct ExportCommandTests {
    /// An incident's admin state: a degrade rule for one platform, a rule that goes on to later
    /// rules, a hotfix route in a module of its own and another in the default module.
    static let incident = """
        rules:
          - id: degrade-cart-android
            match: '^shopapp://cart'
            target: 'https://m.shop.example.com/cart'
            when: { platform: [android] }
          - id: hotfix-goods
            match: '^shopapp://goods/old/([0-9]+)'
            target: 'shopapp://goods/$1'
            last: false
        routes:
          - id: hotfix.landing
            module: hotfix
            pattern: /hotfix/:id<int>
            target: { page: Hotfix, reason: "incident 42" }
          - id: promo.flash
            patterns: [/flash/:slug, "https://shop.example.com/flash/:slug"]
            target: { page: Flash }
            minAppVersion: 5.2.0
            web: https://m.shop.example.com/flash/:slug

        """

    @Test func exportRoundTripsOverTheSampleAndRandomURLs() async throws {
        let live = try await AdminCommandTests.Live()
        let applied = try live.run(["admin", "apply", "-f", try live.file("incident.yaml", Self.incident)])
        #expect(applied.status == 0, "\(applied.stderr)")

        let fromServer = live.directory.url.appendingPathComponent("exported").path
        let export = try live.run(["export", "--output", fromServer, "--config", live.config.directory])
        #expect(export.status == 0, "\(export.stdout)\(export.stderr)")
        #expect(export.stdout.contains("exported admin version 1 to \(fromServer): 2 admin rules after"), "\(export.stdout)")

        // The file store gives the same files as the server.
        let fromStore = live.directory.url.appendingPathComponent("from-store").path
        let stored = try live.run(
            ["export", "--output", fromStore, "--data-dir", live.config.dataDirectory, "--config", live.config.directory])
        #expect(stored.status == 0, "\(stored.stderr)")
        for file in ["rewrites.yaml", "routes.d/admin.hotfix.yaml", "routes.d/admin.admin.yaml"] {
            let server = try String(contentsOfFile: fromServer + "/" + file, encoding: .utf8)
            #expect(server == (try String(contentsOfFile: fromStore + "/" + file, encoding: .utf8)), "\(file)")
        }

        let originalConfig = try ConfigDirectory.load(from: live.config.directory)
        let admin = try FileAdminStore(directory: live.config.dataDirectory).load()
        #expect(admin.version == 1 && admin.rules.count == 2 && admin.routes.count == 2)
        let original = try Snapshot.build(config: originalConfig, admin: admin)
        let exported = try Snapshot.build(config: try ConfigDirectory.load(from: fromServer), admin: AdminState())
        let random = Self.randomRequests(count: 10_000, config: originalConfig)
        let requests = Self.sample(originalConfig) + random
        let now = try #require(RequestContext.seconds(rfc3339: "2026-11-28T10:00:00+00:00"))
        // The random URLs reach routes and rules, not only the fallback.
        let matched = random.filter { request in
            let context = RequestContext(platform: request.platform, appVersion: request.appVersion, deviceID: nil, now: now)
            return (try? original.resolver.resolve(request.url, context: context))?.matched == true
        }
        #expect(matched.count > 1_000, "\(matched.count) of \(random.count) random URLs match a route")

        let report = ImpactReport.compare(requests, before: original.resolver, after: exported.resolver, now: now, examples: 3)
        #expect(report.urls == requests.count)
        #expect(report.changed == 0, "\(report.text(change: ChangeSummary(from: original.resolver, to: exported.resolver)))")

        // Over HTTP: a fresh server on the exported directory, with an empty store of its own,
        // answers the sample with the same status and body as the server the state was pushed to.
        let fresh = try TestConfig.minimal(routes: [:])
        let exportedFiles = try FileManager.default.subpathsOfDirectory(atPath: fromServer).filter { $0.hasSuffix(".yaml") }
        for file in exportedFiles where file != "switchboard.yaml" {
            try fresh.write(file, try String(contentsOfFile: fromServer + "/" + file, encoding: .utf8))
        }
        try fresh.writeSettings(try String(contentsOfFile: fromServer + "/switchboard.yaml", encoding: .utf8))
        let freshServer = try ServerProcess(config: fresh, token: AdminCommandTests.token)
        try await freshServer.waitUntilListening()
        let before = try live.server.client()
        let after = try freshServer.client()
        for request in Self.sample(originalConfig) {
            var query = ""
            if let platform = request.platform { query += "&platform=\(platform)" }
            if let version = request.appVersion { query += "&appVersion=\(version)" }
            let expected = try before.resolve(request.url, extraQuery: query)
            let answered = try after.resolve(request.url, extraQuery: query)
            #expect(answered.status == expected.status && answered.text == expected.text, "\(request.url)\(query)")
        }
        #expect(!FileManager.default.fileExists(atPath: fresh.stateFile), "the fresh server's store stays empty")

        // The comparison sees the admin state: without it, answers differ.
        let bare = try Snapshot.build(config: originalConfig, admin: AdminState())
        let withoutAdmin = ImpactReport.compare(requests, before: bare.resolver, after: exported.resolver, now: now, examples: 1)
        #expect(withoutAdmin.changed > 50, "\(withoutAdmin.changed)")
    }

    @Test func exportChangesNothingOnBadInput() async throws {
        let live = try await AdminCommandTests.Live()
        try live.directory.write("used/file.txt", "mine")
        let used = live.directory.url.appendingPathComponent("used").path
        let notEmpty = try live.run(["export", "--output", used])
        #expect(notEmpty.status == 2)
        #expect(notEmpty.stderr.contains("is not empty"), "\(notEmpty.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: used) == ["file.txt"])

        let out = live.directory.url.appendingPathComponent("out").path
        let badConfig = try live.run(["export", "--output", out, "--config", live.directory.url.appendingPathComponent("none").path])
        #expect(badConfig.status == 2)
        #expect(!FileManager.default.fileExists(atPath: out))

        let down = try live.run(["export", "--output", out], server: "http://127.0.0.1:1")
        #expect(down.status == 3, "\(down.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))

        let both = try live.run(["export", "--output", out, "--data-dir", "a", "--store", "postgres://x@127.0.0.1:1/db"])
        #expect(both.status == 2)
    }

    /// The traffic a pipeline would replay: every example of the demo config (with its context)
    /// and the links the incident's state touches.
    static func sample(_ config: ConfigDirectory) -> [SampledRequest] {
        var requests: [SampledRequest] = []
        let examples =
            config.routeFiles.flatMap { $0.file.routes.flatMap { $0.examples ?? [] } } + config.rewriteRules.flatMap { $0.examples ?? [] }
        for example in examples {
            requests.append(SampledRequest(url: example.url, platform: example.platform, appVersion: example.appVersion))
        }
        for url in [
            "shopapp://cart", "shopapp://cart/items", "shopapp://goods/old/7", "shopapp://hotfix/3", "shopapp://hotfix/x",
            "shopapp://flash/summer", "https://shop.example.com/flash/summer", "shopapp://live/5", "shopapp://product/42?ref=push",
        ] {
            for platform in [nil, "ios", "android", "web"] {
                for version in [nil, "5.1.0", "5.3.0"] {
                    requests.append(SampledRequest(url: url, platform: platform, appVersion: version))
                }
            }
        }
        return requests
    }

    /// `count` requests made of the demo routes' words, numbers and noise, with random app
    /// contexts, from a fixed seed (the same URLs on every run).
    static func randomRequests(count: Int, config: ConfigDirectory) -> [SampledRequest] {
        var generator = SplitMix(seed: 0x5717_C4B0)
        var words = Set(["cart", "goods", "old", "hotfix", "flash", "product", "live", "x", ""])
        for route in config.routeFiles.flatMap(\.file.routes) {
            for pattern in route.patterns {
                for word in pattern.split(separator: "/") where !word.contains(":") && !word.contains("*") && !word.contains("(") {
                    words.insert(String(word))
                }
            }
        }
        let vocabulary = words.sorted()
        let prefixes = [
            "shopapp://", "https://shop.example.com/", "https://www.shop.example.com/", "https://m.shop.example.com/",
            "http://shop.example.com/", "https://help.shop.example.com/", "otherapp://", "https://evil.example.net/",
        ]
        let values = ["42", "7", "-1", "abc", "3f2504e0-4f89-41d3-9a0c-0305e82c3301", "double11", "red%20shoes", "%E4%BD%A0", "a.b"]
        var requests: [SampledRequest] = []
        for _ in 0..<count {
            var url = prefixes[Int(generator.next() % UInt64(prefixes.count))]
            let depth = Int(generator.next() % 4) + 1
            url += (0..<depth).map { _ in
                generator.next() % 3 == 0
                    ? values[Int(generator.next() % UInt64(values.count))] : vocabulary[Int(generator.next() % UInt64(vocabulary.count))]
            }.joined(separator: "/")
            if generator.next() % 5 == 0 { url += "?ref=push&id=\(generator.next() % 100)" }
            let platform = [nil, "ios", "android", "web"][Int(generator.next() % 4)]
            let version = [nil, "5.1.0", "5.2.0", "6.0.0"][Int(generator.next() % 4)]
            requests.append(SampledRequest(url: url, platform: platform, appVersion: version))
        }
        return requests
    }
}
