import SwitchboardServer
import Testing

/// The exposition's shape (docs/operations.md "Metrics"); scripts/check-metrics.sh parses a live server's
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

    @Test("runs of one endpoint and status, broken by new series, are all counted, with their latencies")
    func requestCountsOverChangingSeries() {
        let metrics = Metrics(shardCount: 1)
        var generator = SystemRandomNumberGenerator()
        var expected: [String: Int] = [:]
        var perEndpoint: [String: Int] = [:]
        for _ in 0..<3_000 {
            // Runs of repeats, as real traffic has, then a change (sometimes to a new series).
            let endpoint = ["resolve", "open", "admin", "e\(Int.random(in: 0..<20, using: &generator))"].randomElement(using: &generator)!
            let status = [200, 200, 404, 400].randomElement(using: &generator)!
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                metrics.recordRequest(endpoint: endpoint, status: status, seconds: 0.000_003)
                expected[#"switchboard_http_requests_total{endpoint="\#(endpoint)",status="\#(status)"}"#, default: 0] += 1
                perEndpoint[endpoint, default: 0] += 1
            }
        }
        let text = metrics.render()
        for (series, count) in expected {
            #expect(metricValue(text, series) == Double(count), "\(series)")
        }
        for (endpoint, count) in perEndpoint {
            let series = #"switchboard_http_request_duration_seconds_count{endpoint="\#(endpoint)"}"#
            #expect(metricValue(text, series) == Double(count), "\(series)")
        }
    }

    @Test("the version and the process figures are exposed")
    func buildInfoAndProcess() {
        let text = Metrics().render()
        let labels = #"version="\#(SwitchboardVersion.current)",revision="\#(SwitchboardVersion.revision)""#
        #expect(metricValue(text, "switchboard_build_info{\(labels)}") == 1)
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

    @Test("records from many threads at once, in full batches and partial ones, are all in the next scrape and in routeHits")
    func concurrentRecordsAreAllCounted() async {
        let metrics = Metrics(shardCount: 4)
        let threads = 8
        // Not a multiple of a batch on any thread, so that records wait when the counters are read.
        let perThread = 1_001
        func routeID(_ index: Int) -> String { "route\(index % 3)" }
        func firedRules(thread: Int, index: Int) -> [String] { index % 4 == 0 ? ["r\(thread % 2)"] : [] }
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<threads {
                group.addTask {
                    for index in 0..<perThread {
                        metrics.recordRequest(endpoint: "resolve", status: index % 10 == 0 ? 404 : 200, seconds: 0.000_003)
                        metrics.recordResolution(
                            routeID: routeID(index), firedRuleIDs: firedRules(thread: thread, index: index), ruleErrors: 0,
                            limitHits: 0, cache: index % 2 == 0 ? .hit : .miss)
                    }
                }
            }
        }
        var expected: [String: Int] = [:]
        var routeHits: [String: Int] = [:]
        for thread in 0..<threads {
            for index in 0..<perThread {
                expected[#"switchboard_http_requests_total{endpoint="resolve",status="\#(index % 10 == 0 ? 404 : 200)"}"#, default: 0] += 1
                expected[#"switchboard_http_request_duration_seconds_count{endpoint="resolve"}"#, default: 0] += 1
                expected[#"switchboard_resolve_cache_requests_total{result="\#(index % 2 == 0 ? "hit" : "miss")"}"#, default: 0] += 1
                for rule in firedRules(thread: thread, index: index) {
                    expected[#"switchboard_rule_hits_total{rule="\#(rule)"}"#, default: 0] += 1
                }
                routeHits[routeID(index), default: 0] += 1
            }
        }
        let routes = ["route0", "route1", "route2"]
        #expect(metrics.routeHits(routes) == routes.map { routeHits[$0] ?? 0 })
        // Read twice: the first read folds what waits, and a second one finds nothing counted twice.
        for _ in 0..<2 {
            let text = metrics.render()
            for (series, count) in expected {
                #expect(metricValue(text, series) == Double(count), "\(series)")
            }
        }
    }
}
