import Foundation
import SwitchboardTestSupport
import Synchronization
import Testing

extension IntegrationTests {
    /// Admin writes and reloads run off libmicrohttpd's threads (suspend/resume), so a slow
    /// reload never stalls the requests a worker is serving (design.md §6).
    @Suite("Slow admin calls do not stall requests")
    struct OffWorkerAdminTests {
        @Test("with one worker thread, /resolve answers while POST /admin/reload rebuilds a large config")
        func resolveIsServedDuringASlowReload() async throws {
            var lines = ["module: bulk", "routes:"]
            for index in 0..<40_000 {
                lines.append("  - { id: b\(index), pattern: /bulk\(index % 100)/item\(index / 100)/:id, target: {} }")
            }
            let config = try TestConfig.minimal(
                routes: ["bulk.yaml": lines.joined(separator: "\n") + "\n", "me.yaml": "module: me\nroutes: [{ id: me, pattern: /me }]\n"],
                settings: "threads: 1\n")
            let server = try await InProcessServer(config: config)
            let port = server.port

            let reloadSeconds = Mutex<Double>(0)
            let reloadStatus = Mutex<Int>(0)
            let reload = Thread {
                let started = ContinuousClock.now
                let status = (try? HTTPTestClient(port: port, timeout: .seconds(120)).admin("POST", "/admin/reload").status) ?? 0
                let elapsed = ContinuousClock.now - started
                reloadStatus.withLock { $0 = status }
                reloadSeconds.withLock { $0 = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18 }
            }
            let client = try HTTPTestClient(port: port)
            #expect(try client.resolve("shopapp://me").status == 200)
            reload.start()
            usleep(100_000)  // the reload is under way
            var slowest = 0.0
            for _ in 0..<5 {
                let started = ContinuousClock.now
                #expect(try client.resolve("shopapp://bulk7/item3/42").status == 200)
                let elapsed = ContinuousClock.now - started
                slowest = max(slowest, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            }
            _ = try await eventually(timeout: .seconds(120), interval: .milliseconds(50)) { reloadStatus.withLock { $0 } != 0 }
            let reloadTook = reloadSeconds.withLock { $0 }
            #expect(reloadStatus.withLock { $0 } == 200)
            try #require(reloadTook > 0.5, "the reload was too quick (\(reloadTook) s) to show anything")
            #expect(slowest < reloadTook / 4, "a resolve took \(slowest) s while the reload took \(reloadTook) s")
        }
    }
}
