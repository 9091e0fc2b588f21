import Foundation
import SwitchboardTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension IntegrationTests {
    /// The graceful shutdown Kubernetes needs (docs/operations.md "Kubernetes"): on `SIGTERM`, `/readyz`
    /// fails at once while requests are still served for `drain_seconds`, then the process
    /// stops and exits 0.
    @Suite("SIGTERM drains before it stops")
    struct DrainTests {
        @Test("during the drain period new connections are answered and /readyz says 503; the process exits 0 after it")
        func drainKeepsServing() async throws {
            let config = try TestConfig.demo()
            try config.writeSettings(try config.read("switchboard.yaml") + "drain_seconds: 3\n")
            let process = try ServerProcess(config: config)
            try await process.waitUntilListening()
            let ready = try process.client().request("GET", "/readyz")
            #expect(ready.status == 200, "\(ready.dump)")
            let live = try process.client().request("GET", "/livez")
            #expect(live.json["version"] as? String != nil, "\(live.dump)")

            let clock = ContinuousClock()
            let signalled = clock.now
            process.send(SIGTERM)
            // The signal reaches the service group asynchronously: a moment, not the drain period.
            let notReady = try await eventually(timeout: .seconds(1)) {
                try process.client().request("GET", "/readyz").status == 503
            }
            #expect(notReady, "/readyz still 200 a second after SIGTERM")
            var answered = 0
            var readyzStatuses: Set<Int> = []
            // Until 2 s of the 3 s drain have passed, every new connection is answered.
            while clock.now - signalled < .seconds(2) {
                let readyz = try process.client(timeout: .seconds(5)).request("GET", "/readyz")
                OpenAPIConformance.check("GET", "/readyz", readyz)
                readyzStatuses.insert(readyz.status)
                #expect(readyz.json["status"] as? String == "draining", "\(readyz.dump)")
                let resolved = try process.client(timeout: .seconds(5)).resolve("shopapp://product/42")
                #expect(resolved.status == 200, "\(resolved.dump)")
                answered += 1
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(readyzStatuses == [503])
            #expect(answered >= 3, "only \(answered) rounds answered during the drain")
            #expect(process.log.contains("draining"), "\(process.log)")

            let exit = try #require(try await process.waitForExit(timeout: .seconds(15)), "still running after the drain")
            let stopped = clock.now - signalled
            #expect(exit.reason == .exit && exit.status == 0, "\(process.log)")
            #expect(stopped >= .seconds(3), "stopped after \(stopped), before the drain period ended")
            // After the drain the listener is closed.
            #expect(throws: (any Error).self) { _ = try process.client(timeout: .seconds(1)).request("GET", "/livez") }
        }
    }
}
