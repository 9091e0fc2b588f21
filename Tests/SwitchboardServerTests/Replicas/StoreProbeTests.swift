import Foundation
import SwitchboardServer
import SwitchboardTestSupport
import Testing

extension ReplicaTests {
    @Test("switchboard_store_up says whether the PostgreSQL store answers; resolving goes on and /readyz stays 200 without it")
    func storeProbeReportsReachability() async throws {
        let database = try Self.freshDatabase()
        let server = try await InProcessServer(config: .demo(), environment: ["SWITCHBOARD_STORE": database])
        let metrics = server.application.context.metrics
        let up = #"switchboard_store_up{store="postgres"}"#
        #expect(try await eventually { metricValue(metrics.render(), up) == 1 }, "\(metrics.render())")
        #expect(metricValue(metrics.render(), #"switchboard_store_last_reachable_timestamp_seconds{store="postgres"}"#) ?? 0 > 0)

        try Self.cluster("stop")
        // InProcessServer probes every 0.5 s.
        let down = try await eventually(timeout: .seconds(10)) { metricValue(metrics.render(), up) == 0 }
        let client = try server.client()
        let resolved = try client.resolve("shopapp://product/42").status
        let ready = try client.request("GET", "/readyz").status
        try Self.cluster("restart")
        #expect(down, "\(metrics.render())")
        #expect(resolved == 200)
        #expect(ready == 200)
        #expect(server.logs.all.contains { $0.message == "the admin store does not answer" })
        #expect(try await eventually(timeout: .seconds(10)) { metricValue(metrics.render(), up) == 1 })
    }

    @Test("a file store has no store series")
    func fileStoreHasNoProbe() async throws {
        let server = try await InProcessServer(config: .demo())
        #expect(!server.application.context.metrics.render().contains("switchboard_store_up"))
    }
}
