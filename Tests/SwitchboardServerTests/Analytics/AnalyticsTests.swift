import Foundation
import SwitchboardServer
import SwitchboardStore
import SwitchboardTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Link analytics over loopback: known traffic, counted, kept across restarts, read back.
@Suite("Link analytics over loopback", .blockingIO)
struct AnalyticsTests {
    static let routes = """
        module: shop
        routes:
          - { id: product, pattern: /p/:id }
          - { id: home, pattern: /home }
        """
    static let rewrites = """
        rules:
          - id: legacy
            match: '^shopapp://old/(.*)$'
            target: 'shopapp://p/$1'
        """

    static func config(settings: String = "") throws -> TestConfig {
        try TestConfig.minimal(routes: ["shop.yaml": routes], rewrites: rewrites, settings: settings)
    }

    /// Known traffic: 3 product (iOS 5.x, the last two from the cache), 2 legacy links the
    /// rule rewrites to product (Android 7.x), 1 home through `/open`, a batch of a home and an
    /// unmatched link, 3 unmatched links that differ by click id only, 1 invalid link, and one
    /// `explain` (not counted).
    static func sendTraffic(_ client: HTTPTestClient) throws {
        let ios = [("X-App-Platform", "iOS"), ("X-App-Version", "5.2.0"), ("X-Device-Id", "device-secret-1")]
        for _ in 0..<3 {
            #expect(try client.request("GET", "/resolve?url=shopapp%3A%2F%2Fp%2F12", headers: ios).status == 200)
        }
        for id in ["7", "8"] {
            let response = try client.resolve("shopapp://old/\(id)", extraQuery: "&platform=android&appVersion=7.0.1")
            #expect(response.status == 200)
        }
        #expect(try client.request("GET", "/open?url=" + HTTPTestClient.queryValue("shopapp://home")).status != 0)
        let batch = try client.admin(
            "POST", "/resolve", token: nil,
            json: #"{"urls": ["shopapp://home", {"url": "shopapp://nowhere/1?token=abc", "platform": "web"}]}"#)
        #expect(batch.status == 200, "\(batch.dump)")
        for clickID in ["AB12", "CD34", "EF56"] {
            #expect(try client.resolve("shopapp://promo/summer?cid=\(clickID)").status == 404)
        }
        #expect(try client.resolve("not a url").status == 400)
        #expect(try client.resolve("shopapp://home", extraQuery: "&explain=1").status == 200)
    }

    /// `by` → key → count over the whole range.
    static func totals(_ client: HTTPTestClient, by: String) throws -> [String: Int] {
        let response = try client.admin("GET", "/admin/analytics?by=\(by)")
        #expect(response.status == 200, "\(response.dump)")
        var totals: [String: Int] = [:]
        for key in response.json["keys"] as? [[String: Any]] ?? [] {
            if let name = key["key"] as? String, let total = key["total"] as? Int { totals[name] = total }
        }
        return totals
    }

    static func orphans(_ client: HTTPTestClient) throws -> [String: Int] {
        let response = try client.admin("GET", "/admin/analytics/orphans")
        #expect(response.status == 200, "\(response.dump)")
        var links: [String: Int] = [:]
        for orphan in response.json["orphans"] as? [[String: Any]] ?? [] {
            if let link = orphan["link"] as? String, let count = orphan["count"] as? Int { links[link] = count }
        }
        return links
    }

    /// What ``sendTraffic(_:)`` counts (`times` over), by route, platform, version, rule, status and orphans.
    static func trafficCounts(times: Int = 1) -> [String: [String: Int]] {
        let once = [
            "route": ["product": 5, "home": 2, "unmatched": 4, "400": 1],
            "platform": ["ios": 3, "android": 2, "web": 1, "none": 6],
            "version": ["5": 3, "7": 2, "none": 7],
            "rule": ["legacy": 2],
            "status": ["200": 7, "404": 4, "400": 1],
            "orphans": ["shopapp://promo/summer?cid=XX00": 3, "shopapp://nowhere/1?token=xxx": 1],
        ]
        return once.mapValues { $0.mapValues { $0 * times } }
    }

    /// Every dimension and the orphans as the server answers them.
    static func readCounts(_ client: HTTPTestClient) throws -> [String: [String: Int]] {
        var counts: [String: [String: Int]] = [:]
        for by in ["route", "platform", "version", "rule", "status"] { counts[by] = try totals(client, by: by) }
        counts["orphans"] = try orphans(client)
        return counts
    }

    /// What ``sendTraffic(_:)`` counts, read back by route, platform, version, rule, status and orphans.
    static func expectTrafficCounts(_ client: HTTPTestClient, times: Int = 1) throws {
        let read = try readCounts(client)
        for (by, expected) in trafficCounts(times: times) { #expect(read[by] == expected, "by \(by)") }
    }

    @Test("known traffic is read back exactly after a restart, by route, platform, version, rule and status, with orphans by shape")
    func countsSurviveARestart() async throws {
        let config = try Self.config()
        let first = try await InProcessServer(config: config)
        try Self.sendTraffic(try first.client())
        try await first.stop()

        let second = try await InProcessServer(config: config)
        let client = try second.client()
        try Self.expectTrafficCounts(client)
        let stored = try String(contentsOfFile: config.dataDirectory + "/analytics.log", encoding: .utf8)
        #expect(!stored.contains("device-secret") && !stored.contains("AB12") && !stored.contains("abc"))
        try await second.stop()
    }

    @Test("counts not flushed yet are answered too, and the CSV has one row per bucket and key")
    func unflushedAndCSV() async throws {
        let server = try await InProcessServer(config: try Self.config(settings: "analytics: { flush_seconds: 3600 }\n"))
        let client = try server.client()
        try Self.sendTraffic(client)
        try Self.expectTrafficCounts(client)
        let csv = try client.admin("GET", "/admin/analytics?by=rule&format=csv")
        #expect(csv.status == 200 && csv.header("Content-Type") == "text/csv; charset=utf-8")
        let lines = csv.text.split(separator: "\n")
        #expect(lines.first == "bucket,key,count")
        #expect(lines.count == 2 && lines.last?.hasSuffix(",legacy,2") == true, "\(csv.text)")
    }

    @Test(
        "the asking app is counted alike whether the resolve reads it or not, and from the cache too",
        arguments: [false, true])
    func askingAppOnEveryPath(resolveReadsTheApp: Bool) async throws {
        // A rule with a `when` on the platform makes the resolve read the asking app itself.
        let rewrites =
            Self.rewrites
            + (resolveReadsTheApp
                ? """

                  - id: android-only
                    match: '^shopapp://never/(.*)$'
                    target: 'shopapp://p/$1'
                    when: { platform: [android] }

                """
                : "")
        let config = try TestConfig.minimal(routes: ["shop.yaml": Self.routes], rewrites: rewrites, settings: "")
        let server = try await InProcessServer(config: config)
        let client = try server.client()
        // Each link three times: the third answer comes from the cache.
        for _ in 0..<3 {
            #expect(try client.resolve("shopapp://home", extraQuery: "&platform=Web&appVersion=3.1.0").status == 200)
            let tv = [("X-App-Platform", "tvOS"), ("X-App-Version", "12.0.0")]
            #expect(try client.request("GET", "/resolve?url=shopapp%3A%2F%2Fhome", headers: tv).status == 200)
            let unversioned = [("X-App-Version", "twelve")]
            #expect(try client.request("GET", "/resolve?url=shopapp%3A%2F%2Fp%2F1", headers: unversioned).status == 200)
        }
        #expect(try Self.totals(client, by: "platform") == ["web": 3, "other": 3, "none": 3])
        #expect(try Self.totals(client, by: "version") == ["3": 3, "12": 3, "none": 3])
        #expect(try Self.totals(client, by: "route") == ["home": 6, "product": 3])
        #expect(try Self.totals(client, by: "status") == ["200": 9])
    }

    @Test(
        "bad ranges and dimensions are clear 400s",
        arguments: [
            ("/admin/analytics?from=2026-11-28T10:00:00Z&to=2026-11-28T09:00:00Z", "invalid_range"),
            ("/admin/analytics?by=device", "unknown_dimension"),
            ("/admin/analytics?from=2001-01-01T00:00:00Z", "range_beyond_retention"),
            ("/admin/analytics/orphans?from=2001-01-01T00:00:00Z", "range_beyond_retention"),
            ("/admin/analytics?from=yesterday", "invalid_parameter"),
            ("/admin/analytics?format=xml", "invalid_parameter"),
        ])
    func badInput(target: String, code: String) async throws {
        let server = try await InProcessServer(config: try Self.config())
        let response = try server.client().admin("GET", target)
        #expect(response.status == 400, "\(response.dump)")
        #expect((response.json["error"] as? [String: Any])?["code"] as? String == code, "\(response.dump)")
    }

    @Test("analytics need a token, and analytics.enabled: false turns them off entirely")
    func offSwitch() async throws {
        let server = try await InProcessServer(config: try Self.config(settings: "analytics: { enabled: false }\n"))
        let client = try server.client()
        #expect(try client.admin("GET", "/admin/analytics", token: nil).status == 401)
        try Self.sendTraffic(client)
        let response = try client.admin("GET", "/admin/analytics")
        #expect(response.status == 404 && (response.json["error"] as? [String: Any])?["code"] as? String == "analytics_disabled")
        try await server.stop()
        #expect(!FileManager.default.fileExists(atPath: server.config.dataDirectory + "/analytics.log"))
    }

    @Test("a bucket changed under existing counts stops the start with a clear error, and the counts are kept")
    func bucketChangeIsRefused() async throws {
        let config = try Self.config()
        let first = try await InProcessServer(config: config)
        try Self.sendTraffic(try first.client())
        try await first.stop()
        let before = try Data(contentsOf: URL(fileURLWithPath: config.dataDirectory + "/analytics.log"))
        try config.writeSettings("schemes: [shopapp]\nanalytics: { bucket: day }\n")
        await #expect {
            _ = try await InProcessServer(config: config)
        } throws: { error in
            "\(error)".contains("analytics.bucket is 'day' but the analytics in") && "\(error)".contains("counted by 'hour'")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: config.dataDirectory + "/analytics.log")) == before)
    }

    @Test("kill -9 after a flush loses nothing flushed, and counts nothing twice")
    func killAfterFlush() async throws {
        let config = try Self.config(settings: "analytics: { flush_seconds: 1 }\n")
        let first = try ServerProcess(config: config, logName: "first.log")
        try await first.waitUntilListening()
        try Self.sendTraffic(try first.client())
        // Every resolution is in the file once the route counts there add up to the traffic's 12.
        let flushed = try await eventually(timeout: .seconds(20), interval: .milliseconds(200)) {
            let stored = try? FileAnalyticsStore(directory: config.dataDirectory, bucketSeconds: 3_600, orphansPerBucket: 100)
            return stored?.counts(from: 0, to: Int(Int32.max), .route).reduce(0) { $0 + $1.count } == 12
        }
        #expect(flushed)
        first.send(SIGKILL)
        _ = try await first.waitForExit()

        let second = try ServerProcess(config: config, logName: "second.log")
        try await second.waitUntilListening()
        try Self.expectTrafficCounts(try second.client())
    }
}

/// Two replicas on the PostgreSQL store add to the same counts.
@Suite(
    "Link analytics shared by replicas", .serialized, .blockingIO,
    .enabled("needs SWITCHBOARD_TEST_POSTGRES (run scripts/test.sh)") { TestPostgres.url != nil })
struct SharedAnalyticsTests {
    @Test("two replicas report the sum of both, once each, also after both restart")
    func replicasReportTheSum() async throws {
        let database = try ReplicaTests.freshDatabase()
        let config = try AnalyticsTests.config(settings: "analytics: { flush_seconds: 1 }\n")
        let first = try await ReplicaTests.replica(config, database, "first")
        let second = try await ReplicaTests.replica(config, database, "second")
        try AnalyticsTests.sendTraffic(try first.client())
        try AnalyticsTests.sendTraffic(try second.client())
        let doubled = AnalyticsTests.trafficCounts(times: 2)
        let summed = try await eventually(timeout: .seconds(20), interval: .milliseconds(200)) {
            (try? AnalyticsTests.readCounts(try first.client())) == doubled
                && (try? AnalyticsTests.readCounts(try second.client())) == doubled
        }
        let read = try AnalyticsTests.readCounts(try first.client())
        #expect(summed, "\(read)")
        first.send(SIGTERM)
        second.send(SIGTERM)
        _ = try await first.waitForExit()
        _ = try await second.waitForExit()

        let third = try await ReplicaTests.replica(config, database, "third")
        try AnalyticsTests.expectTrafficCounts(try third.client(), times: 2)
    }
}
