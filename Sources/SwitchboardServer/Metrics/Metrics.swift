import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The service's counters, rendered in the Prometheus text format at `GET /metrics`.
///
/// Per-request counters are sharded by thread: each worker thread records into its own
/// shard under a lock nobody else wants, so requests on different threads never wait for each
/// other (one shared lock would be contended by every request). A request only appends what
/// it counts to its shard's batch, which is folded into the series a batch at a time
/// (``RequestCounters``). A scrape folds and sums the shards.
///
/// `switchboard_route_hits_total` is bounded: at most `routeSeriesLimit` routes get a series
/// of their own (the first ones scraped, by hits), every other route counts under
/// `route="_other"` (docs/operations.md "Metrics"). Once the limit is reached the set of routes with a
/// series never changes, so every series stays a monotonic counter.
package final class Metrics: Sendable {
    /// Upper bounds of the request latency histogram, in seconds: a cached resolve takes about
    /// a microsecond, an admin write with fsync milliseconds, a reload through the API seconds.
    static let latencyBuckets: [Double] = [
        0.000_001, 0.000_002_5, 0.000_005, 0.000_01, 0.000_025, 0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5,
        0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
    ]
    /// Upper bounds of the reload duration histogram, in seconds (a demo config reloads in a
    /// millisecond, a million routes in a minute).
    static let reloadBuckets: [Double] = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120]
    /// The label value of the routes without a series of their own.
    static let otherRoutes = "_other"

    /// What reloads and snapshot swaps record (rare).
    private struct ServiceState {
        var reloadsSucceeded = 0
        var reloadsFailed = 0
        var reloadDurations = Histogram(buckets: Metrics.reloadBuckets.count)
        var lastReloadSucceeded = true
        var store: StoreProbe?
        var routes = 0
        var rules = 0
        var adminVersion = 0
        var adminAuthFailures = 0
        var adminAuthThrottled = 0
    }

    /// A shard of the request counters (a class: `Mutex` cannot live in an array).
    private final class Shard: Sendable {
        let counters = Mutex(RequestCounters())
    }

    /// The last probe of a shared admin store.
    package struct StoreProbe: Sendable {
        /// `postgres`.
        package var kind: String
        package var reachable: Bool
        package var seconds: Double
        /// When it was last reachable, in seconds since the Unix epoch (0: never since start).
        package var lastReachable: Double
    }

    private let shards: [Shard]
    private let service = Mutex(ServiceState())
    private let routeSeriesLimit: Int
    /// The routes with a series of their own; it only grows, up to `routeSeriesLimit`.
    private let routesWithSeries = Mutex<Set<String>>([])

    /// - Parameters:
    ///   - shardCount: shards of the per-request counters; a power of two at least the number
    ///     of threads that record (default 16).
    ///   - routeSeriesLimit: routes with a `switchboard_route_hits_total` series of their own
    ///     (`metrics_route_series`); the others count under `route="_other"`.
    package init(shardCount: Int = 16, routeSeriesLimit: Int = 100) {
        var count = 1
        while count < max(1, shardCount) { count <<= 1 }
        shards = (0..<count).map { _ in Shard() }
        self.routeSeriesLimit = max(0, routeSeriesLimit)
    }

    /// The calling thread's shard (a hash of its thread id).
    private var currentShard: Shard {
        #if canImport(Glibc)
            let thread = UInt(pthread_self())
        #else
            let thread = UInt(bitPattern: pthread_self())
        #endif
        let mixed = (thread &* 0x9E37_79B9_7F4A_7C15) >> 32
        return shards[Int(mixed & UInt(shards.count - 1))]
    }

    /// Records one answered request.
    /// - Parameters:
    ///   - endpoint: a fixed label (`resolve`, `admin`, …), never the raw path.
    ///   - seconds: time spent in the handler.
    package func recordRequest(endpoint: String, status: Int, seconds: Double) {
        currentShard.counters.withLock { state in
            state.append(.request(RequestKey(endpoint: endpoint, status: status), seconds: seconds))
        }
    }

    /// How a `GET /resolve` went with the resolve cache.
    package enum ResolveCacheResult: Sendable {
        /// Answered from the cache.
        case hit
        /// Cacheable, but not in the cache yet.
        case miss
    }

    /// Records what a resolution did: the route hit, the rules that fired or failed, the
    /// regexes a PCRE2 limit stopped (rules' and route constraints'), and whether the resolve
    /// cache answered it (`nil`: the cache could not: `explain`, a batch, the cache off).
    package func recordResolution(
        routeID: String?, firedRuleIDs: [String], ruleErrors: Int, limitHits: Int, constraintLimitHits: Int = 0,
        cache: ResolveCacheResult? = nil
    ) {
        let record = ResolutionRecord(
            routeID: routeID, firedRuleIDs: firedRuleIDs, ruleErrors: ruleErrors, limitHits: limitHits,
            constraintLimitHits: constraintLimitHits, cache: cache)
        currentShard.counters.withLock { state in state.append(.resolution(record)) }
    }

    /// How many resolutions matched each of `routeIDs` since the start, summed over the shards
    /// (`GET /admin/table`): it costs the number of ids, whatever the number of routes.
    package func routeHits(_ routeIDs: [String]) -> [Int] {
        var hits = [Int](repeating: 0, count: routeIDs.count)
        for shard in shards {
            shard.counters.withLock { state in
                state.foldPending()
                for (index, id) in routeIDs.enumerated() { hits[index] += state.routeHits[id] ?? 0 }
            }
        }
        return hits
    }

    /// Records a reload attempt and how long it took.
    package func recordReload(succeeded: Bool, seconds: Double) {
        service.withLock { state in
            if succeeded { state.reloadsSucceeded += 1 } else { state.reloadsFailed += 1 }
            state.lastReloadSucceeded = succeeded
            state.reloadDurations.record(seconds, bounds: Self.reloadBuckets)
        }
    }

    /// Records an admin request refused for a wrong token (`401`).
    package func recordAdminAuthFailure() {
        service.withLock { $0.adminAuthFailures += 1 }
    }

    /// Records an admin request refused because its address sent too many wrong tokens (`429`).
    package func recordAdminAuthThrottled() {
        service.withLock { $0.adminAuthThrottled += 1 }
    }

    /// Records a probe of the shared admin store.
    package func recordStoreProbe(_ probe: StoreProbe) {
        service.withLock { $0.store = probe }
    }

    /// Updates the gauges describing the current snapshot.
    package func recordSnapshot(routes: Int, rules: Int, adminVersion: Int) {
        service.withLock { state in
            state.routes = routes
            state.rules = rules
            state.adminVersion = adminVersion
        }
    }

    /// The Prometheus text exposition.
    package func render() -> String {
        var counters = RequestCounters()
        for shard in shards {
            counters.add(
                shard.counters.withLock { state in
                    state.foldPending()
                    return state
                })
        }
        let service = service.withLock { $0 }
        var out = ""
        func family(_ name: String, _ type: String, _ help: String) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }
        func histogram(_ name: String, _ labels: String, _ histogram: Histogram, _ bounds: [Double]) {
            let prefix = labels.isEmpty ? "" : labels + ","
            let suffix = labels.isEmpty ? "" : "{\(labels)}"
            var cumulative = 0
            for (index, bound) in bounds.enumerated() {
                cumulative += histogram.counts[index]
                out += "\(name)_bucket{\(prefix)le=\"\(Self.format(bound))\"} \(cumulative)\n"
            }
            out += "\(name)_bucket{\(prefix)le=\"+Inf\"} \(histogram.total)\n"
            out += "\(name)_sum\(suffix) \(Self.format(histogram.sum))\n"
            out += "\(name)_count\(suffix) \(histogram.total)\n"
        }
        family("switchboard_build_info", "gauge", "Always 1; the labels say which build runs.")
        out +=
            "switchboard_build_info{version=\"\(Self.escape(SwitchboardVersion.current))\","
            + "revision=\"\(Self.escape(SwitchboardVersion.revision))\"} 1\n"
        family("switchboard_http_requests_total", "counter", "HTTP requests answered, by endpoint and status.")
        for (key, count) in counters.requests.sorted(by: { ($0.key.endpoint, $0.key.status) < ($1.key.endpoint, $1.key.status) }) {
            out += "switchboard_http_requests_total{endpoint=\"\(key.endpoint)\",status=\"\(key.status)\"} \(count)\n"
        }
        family("switchboard_http_request_duration_seconds", "histogram", "Time spent answering a request, by endpoint.")
        for (endpoint, latency) in counters.latency.sorted(by: { $0.key < $1.key }) {
            histogram("switchboard_http_request_duration_seconds", "endpoint=\"\(endpoint)\"", latency, Self.latencyBuckets)
        }
        family("switchboard_routes", "gauge", "Routes in the current snapshot.")
        out += "switchboard_routes \(service.routes)\n"
        family("switchboard_rules", "gauge", "Rewrite rules in the current snapshot.")
        out += "switchboard_rules \(service.rules)\n"
        family("switchboard_admin_version", "gauge", "Version of the admin state.")
        out += "switchboard_admin_version \(service.adminVersion)\n"
        family(
            "switchboard_admin_auth_failures_total", "counter",
            "Admin requests refused by reason: wrong_token (401) or too_many_attempts (429, the address sent too many wrong tokens).")
        out += "switchboard_admin_auth_failures_total{reason=\"wrong_token\"} \(service.adminAuthFailures)\n"
        out += "switchboard_admin_auth_failures_total{reason=\"too_many_attempts\"} \(service.adminAuthThrottled)\n"
        family("switchboard_reloads_total", "counter", "Config reloads, by result.")
        out += "switchboard_reloads_total{result=\"ok\"} \(service.reloadsSucceeded)\n"
        out += "switchboard_reloads_total{result=\"failed\"} \(service.reloadsFailed)\n"
        family("switchboard_reload_duration_seconds", "histogram", "Time a config reload took, failed ones included.")
        histogram("switchboard_reload_duration_seconds", "", service.reloadDurations, Self.reloadBuckets)
        family(
            "switchboard_config_last_reload_success", "gauge",
            "1 if the last reload succeeded, 0 if it failed (the previous config is still served).")
        out += "switchboard_config_last_reload_success \(service.lastReloadSucceeded ? 1 : 0)\n"
        family("switchboard_rule_errors_total", "counter", "Rewrites whose result did not parse, or whose regex failed.")
        out += "switchboard_rule_errors_total \(counters.ruleErrors)\n"
        family(
            "switchboard_rule_limit_hits_total", "counter", "Rule matches stopped by the PCRE2 match/depth limits (counted as no match).")
        out += "switchboard_rule_limit_hits_total \(counters.ruleLimitHits)\n"
        family(
            "switchboard_route_constraint_limit_hits_total", "counter",
            "Route constraint regexes stopped by the PCRE2 match/depth limits (counted as not accepting the segment).")
        out += "switchboard_route_constraint_limit_hits_total \(counters.constraintLimitHits)\n"
        family(
            "switchboard_resolve_cache_requests_total", "counter",
            "GET /resolve requests the resolve cache could answer, by result (hit or miss).")
        out += "switchboard_resolve_cache_requests_total{result=\"hit\"} \(counters.cacheHits)\n"
        out += "switchboard_resolve_cache_requests_total{result=\"miss\"} \(counters.cacheMisses)\n"
        family(
            "switchboard_route_hits_total", "counter",
            "Resolutions by matched route; routes beyond metrics_route_series count under route=\"\(Self.otherRoutes)\".")
        let withSeries = routesWithSeries(admitting: counters.routeHits)
        var others = 0
        for (route, count) in counters.routeHits.sorted(by: { $0.key < $1.key }) {
            if withSeries.contains(route) {
                out += "switchboard_route_hits_total{route=\"\(Self.escape(route))\"} \(count)\n"
            } else {
                others += count
            }
        }
        out += "switchboard_route_hits_total{route=\"\(Self.otherRoutes)\"} \(others)\n"
        family("switchboard_rule_hits_total", "counter", "Rewrites by rule.")
        for (rule, count) in counters.ruleHits.sorted(by: { $0.key < $1.key }) {
            out += "switchboard_rule_hits_total{rule=\"\(Self.escape(rule))\"} \(count)\n"
        }
        if let store = service.store {
            let label = "store=\"\(Self.escape(store.kind))\""
            family("switchboard_store_up", "gauge", "1 if the last probe of the shared admin store reached it, else 0.")
            out += "switchboard_store_up{\(label)} \(store.reachable ? 1 : 0)\n"
            family("switchboard_store_probe_duration_seconds", "gauge", "How long the last probe of the shared admin store took.")
            out += "switchboard_store_probe_duration_seconds{\(label)} \(Self.format(store.seconds))\n"
            family(
                "switchboard_store_last_reachable_timestamp_seconds", "gauge",
                "When a probe last reached the shared admin store, since the Unix epoch (0: not since start).")
            out += "switchboard_store_last_reachable_timestamp_seconds{\(label)} \(Self.format(store.lastReachable))\n"
        }
        ProcessMetrics.read()?.render(into: &out)
        return out
    }

    /// The routes with a series of their own, after admitting the most hit of `hits` while
    /// there is room.
    private func routesWithSeries(admitting hits: [String: Int]) -> Set<String> {
        routesWithSeries.withLock { admitted in
            if admitted.count < routeSeriesLimit {
                let candidates = hits.filter { !admitted.contains($0.key) }
                    .sorted { ($0.value, $1.key) > ($1.value, $0.key) }
                for (route, _) in candidates.prefix(routeSeriesLimit - admitted.count) { admitted.insert(route) }
            }
            return admitted
        }
    }

    /// A sample value as the text format writes it (`1e-06`, `0.5`, `3`).
    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }

    /// Escapes a label value (backslash, quote, newline).
    static func escape(_ value: String) -> String {
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
