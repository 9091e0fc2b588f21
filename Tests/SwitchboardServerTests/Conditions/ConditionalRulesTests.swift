import Foundation
import SwitchboardCore
import SwitchboardStore
import SwitchboardTestSupport
import Synchronization
import Testing

@testable import SwitchboardServer

/// Conditional rules and `minAppVersion` over a real loopback socket: the context comes from
/// query parameters or headers, the time from an injected clock.
@Suite("conditional rules", .blockingIO)
struct ConditionalRulesTests {
    /// A clock the test moves.
    final class TestClock: Sendable {
        let seconds: Mutex<Double>
        init(_ seconds: Double) { self.seconds = Mutex(seconds) }
        func set(_ value: Double) { seconds.withLock { $0 = value } }
        var read: @Sendable () -> Double { { self.seconds.withLock { $0 } } }
    }

    static let settings = "schemes: [shopapp]\ndomains: [shop.example.com]"
    static let routes = [
        "shop": """
        module: shop
        routes:
          - id: venue
            pattern: /venue/:name
          - id: sale
            pattern: /sale
          - id: pdp
            pattern: /product/:id
            web: "https://m.shop.example.com/p/:id"
            minAppVersion: 5.2.0
          - id: pdp2
            pattern: /product2/:id
          - id: ios.home
            pattern: /ios-home
        """
    ]
    static let rewrites = """
        rules:
          - id: double11
            match: '^shopapp://sale$'
            target: 'shopapp://venue/double11'
            when: { activeFrom: "2026-11-11T00:00:00+08:00", activeUntil: "2026-11-12T00:00:00+08:00" }
          - id: new-pdp
            match: '^shopapp://product/([0-9]+)'
            target: 'shopapp://product2/$1'
            when: { percent: 10, platform: [ios, android] }
          - id: ios-home
            match: '^shopapp://home$'
            target: 'shopapp://ios-home'
            when: { platform: [ios], appVersion: ">=5.2.0 <6" }
        """
    static let start = 1_794_326_400.0

    static func server(_ clock: TestClock) throws -> AppsTestServer {
        try AppsTestServer(settings: settings, routes: routes, rewrites: rewrites, clock: clock.read)
    }

    @Test("a time-boxed rule goes online and offline by itself (injected clock)")
    func timeWindow() throws {
        let clock = TestClock(Self.start - 1)
        let server = try Self.server(clock)
        #expect(try server.get("/resolve", url: "shopapp://sale").object()["routeId"] as? String == "sale")
        clock.set(Self.start)
        let during = try server.get("/resolve", url: "shopapp://sale").object()
        #expect(during["routeId"] as? String == "venue")
        #expect(during["ruleIds"] as? [String] == ["double11"])
        clock.set(Self.start + 86_400)
        #expect(try server.get("/resolve", url: "shopapp://sale").object()["routeId"] as? String == "sale")
    }

    @Test("platform and appVersion come from query parameters or X-App-* headers")
    func platformAndVersion() throws {
        let server = try Self.server(TestClock(Self.start))
        let url = AppsTestServer.queryEncoded("shopapp://home")
        let viaQuery = try server.request("GET", "/resolve?url=\(url)&platform=ios&appVersion=5.3.1")
        #expect(try viaQuery.object()["routeId"] as? String == "ios.home")
        let viaHeaders = try server.request(
            "GET", "/resolve?url=\(url)", headers: [("X-App-Platform", "iOS"), ("X-App-Version", "5.2.0")])
        #expect(try viaHeaders.object()["routeId"] as? String == "ios.home")
        let android = try server.request("GET", "/resolve?url=\(url)", headers: [("X-App-Platform", "android"), ("X-App-Version", "5.3")])
        #expect(android.status == 404)
        let old = try server.request("GET", "/resolve?url=\(url)&platform=ios&appVersion=5.1")
        #expect(old.status == 404)
    }

    @Test(
        "platform, appVersion or device given twice is a 400: neither value is taken",
        arguments: ["platform=ios&platform=android", "appVersion=5.3.1&appVersion=4", "device=a&device=b"])
    func contextGivenTwice(query: String) throws {
        let server = try Self.server(TestClock(Self.start))
        let response = try server.request("GET", "/resolve?url=\(AppsTestServer.queryEncoded("shopapp://home"))&\(query)")
        #expect(response.status == 400)
        #expect(response.text.contains("invalid_parameter"), "\(response.text)")
    }

    @Test("a 10 % rollout: stable per device, about 10 % of devices")
    func rollout() throws {
        let server = try Self.server(TestClock(Self.start))
        let url = AppsTestServer.queryEncoded("shopapp://product/42")
        var rolledOut: Set<Int> = []
        let client = try HTTPTestClient(port: server.port)
        for device in 0..<400 {
            let response = try client.request(
                "GET", "/resolve?url=\(url)", headers: [("X-Device-Id", "device-\(device)"), ("X-App-Platform", "ios")])
            if try response.object()["routeId"] as? String == "pdp2" { rolledOut.insert(device) }
        }
        #expect((20...60).contains(rolledOut.count))
        for device in rolledOut.prefix(5) {
            let again = try client.request("GET", "/resolve?url=\(url)&device=device-\(device)&platform=android")
            #expect(try again.object()["routeId"] as? String == "pdp2")
        }
        let noDevice = try client.request("GET", "/resolve?url=\(url)&platform=ios")
        #expect(try noDevice.object()["routeId"] as? String == "pdp")
    }

    @Test("old app versions are sent to the web: openWeb in /resolve")
    func minAppVersion() throws {
        let server = try Self.server(TestClock(Self.start))
        let url = AppsTestServer.queryEncoded("shopapp://product/7")
        let old = try server.request("GET", "/resolve?url=\(url)", headers: [("X-App-Version", "5.1.0")])
        let body = try old.object()
        #expect(body["openWeb"] as? Bool == true)
        #expect(body["webURL"] as? String == "https://m.shop.example.com/p/7")
        let current = try server.request("GET", "/resolve?url=\(url)", headers: [("X-App-Version", "5.2.0")])
        #expect(try current.object()["openWeb"] == nil)
    }

    @Test("an invalid condition in rewrites.yaml fails the load with the rule index")
    func invalidAtLoad() throws {
        let directory = try TemporaryDirectory()
        try directory.write(
            "rewrites.yaml",
            """
            rules:
              - id: ok
                match: a
                target: shopapp://a
              - id: bad
                match: b
                target: shopapp://b
                when: { platform: [windows] }
            """)
        let config = try ConfigDirectory.load(from: directory.path)
        do {
            _ = try Snapshot.build(config: config, admin: AdminState())
            Issue.record("built")
        } catch {
            let issue = try #require(error.issues.first)
            #expect(issue.item == "bad")
            #expect(issue.code == "invalid_condition")
            #expect(issue.message.hasPrefix("rule #1:"))
        }
        try directory.write("rewrites.yaml", "rules: [{id: x, match: a, target: 'shopapp://a', when: {plattform: [ios]}}]\n")
        #expect(throws: ConfigIssues.self) { try ConfigDirectory.load(from: directory.path) }
    }

    @Test("switchboard check: a conditional rule does not make a later rule unreachable")
    func unreachable() {
        let conditional = RewriteRule(id: "a", match: "x", target: "shopapp://a", when: RuleCondition(percent: 10))
        let plain = RewriteRule(id: "b", match: "x", target: "shopapp://b")
        #expect(ConfigCheck.unreachableRules([conditional, plain]).isEmpty)
        #expect(ConfigCheck.unreachableRules([plain, conditional]).map(\.item) == ["a"])
    }

    @Test("an admin rule keeps its when in state.json")
    func persisted() throws {
        let directory = try TemporaryDirectory()
        let store = FileAdminStore(directory: directory.path)
        let rule = RewriteRule(
            id: "r", match: "a", target: "shopapp://a",
            when: RuleCondition(platform: ["ios"], appVersion: ">=5", activeFrom: "2026-11-11T00:00:00Z", percent: 12.5))
        try store.save(AdminState(version: 1, rules: [rule]))
        #expect(try store.load().rules == [rule])
    }
}
