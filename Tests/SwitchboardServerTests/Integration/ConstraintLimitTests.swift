import SwitchboardTestSupport
import Testing

extension IntegrationTests {
    /// A route constraint whose regex hits the PCRE2 limit counts as not accepting, and is
    /// counted in `/metrics`.
    @Suite("Route constraint limits over loopback")
    struct ConstraintLimitTests {
        @Test("the hit is counted in switchboard_route_constraint_limit_hits_total on every request")
        func limitHitsAreCounted() async throws {
            let config = try TestConfig.minimal(
                routes: ["c.yaml": "module: c\nroutes: [{ id: slow, pattern: '/c/:x<(a+)+>' }]\n"])
            let server = try await InProcessServer(config: config)
            let client = try server.client()
            let url = "shopapp://c/" + String(repeating: "a", count: 5_000) + "!"
            for _ in 0..<2 {
                #expect(try client.resolve(url).status == 404)
            }
            let metrics = try client.request("GET", "/metrics").text
            #expect(metricValue(metrics, "switchboard_route_constraint_limit_hits_total") == 2, "\(metrics)")
        }
    }
}
