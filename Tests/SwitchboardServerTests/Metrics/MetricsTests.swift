import SwitchboardServer
import Testing

/// The exposition's shape (README "Metrics"); scripts/check-metrics.sh parses a live server's
/// with prometheus-client.
@Suite("Metrics")
struct MetricsTests {
    @Test("a few-microsecond resolve and a seconds-long reload land in buckets of their own, not the first or +Inf")
    func bucketsFitResolvesAndReloads() {
        let metrics = Metrics()
        metrics.recordRequest(endpoint: "resolve", status: 200, seconds: 0.000_003)
        metrics.recordReload(succeeded: true, seconds: 2)
        let text = metrics.render()
        #expect(metricValue(text, #"switchboard_http_request_duration_seconds_bucket{endpoint="resolve",le="2.5e-06"}"#) == 0)
        #expect(metricValue(text, #"switchboard_http_request_duration_seconds_bucket{endpoint="resolve",le="5e-06"}"#) == 1)
        #expect(metricValue(text, #"switchboard_reload_duration_seconds_bucket{le="1"}"#) == 0)
        #expect(metricValue(text, #"switchboard_reload_duration_seconds_bucket{le="2.5"}"#) == 1)
        #expect(metricValue(text, "switchboard_reload_duration_seconds_count") == 1)
    }

    @Test("the version and the process figures are exposed")
    func buildInfoAndProcess() {
        let text = Metrics().render()
        #expect(metricValue(text, #"switchboard_build_info{version="\#(SwitchboardVersion.current)"}"#) == 1)
        for name in ["process_resident_memory_bytes", "process_cpu_seconds_total", "process_open_fds", "process_start_time_seconds"] {
            #expect((metricValue(text, name) ?? 0) > 0, "\(name)")
        }
    }

    @Test("at most metrics_route_series routes get a series; the rest are summed under _other, and the set never changes once full")
    func routeSeriesAreBounded() {
        let metrics = Metrics(routeSeriesLimit: 2)
        for (route, hits) in [("a", 5), ("b", 1), ("c", 3), ("d", 2)] {
            for _ in 0..<hits { metrics.recordResolution(routeID: route, firedRuleIDs: [], ruleErrors: 0, limitHits: 0) }
        }
        var text = metrics.render()
        let series = text.split(separator: "\n").filter { $0.hasPrefix("switchboard_route_hits_total{") }
        #expect(series.count == 3, "\(series)")
        #expect(metricValue(text, #"switchboard_route_hits_total{route="a"}"#) == 5)
        #expect(metricValue(text, #"switchboard_route_hits_total{route="c"}"#) == 3)
        #expect(metricValue(text, #"switchboard_route_hits_total{route="_other"}"#) == 3)
        // A route that becomes the most hit later still counts under _other: counters never go down.
        for _ in 0..<10 { metrics.recordResolution(routeID: "d", firedRuleIDs: [], ruleErrors: 0, limitHits: 0) }
        text = metrics.render()
        #expect(metricValue(text, #"switchboard_route_hits_total{route="d"}"#) == nil)
        #expect(metricValue(text, #"switchboard_route_hits_total{route="_other"}"#) == 13)
    }
}
