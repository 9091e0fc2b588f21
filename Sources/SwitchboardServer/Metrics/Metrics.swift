import Synchronization

/// The service's counters, rendered in the Prometheus text format at `GET /metrics`.
///
/// One short critical section per request records everything about it (endpoint, status,
/// latency, route and rules), so a scrape always sees a consistent set.
package final class Metrics: Sendable {
    /// Upper bounds of the latency histogram, in seconds.
    static let latencyBuckets: [Double] = [0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.05, 0.1, 0.5]

    private struct Histogram {
        var counts = [Int](repeating: 0, count: Metrics.latencyBuckets.count)
        var sum = 0.0
        var total = 0
    }

    private struct State {
        var requests: [RequestKey: Int] = [:]
        var latency: [String: Histogram] = [:]
        var routeHits: [String: Int] = [:]
        var ruleHits: [String: Int] = [:]
        var ruleErrors = 0
        var ruleLimitHits = 0
        var reloadsSucceeded = 0
        var reloadsFailed = 0
        var lastReloadSucceeded = true
        var routes = 0
        var rules = 0
        var adminVersion = 0
    }

    private struct RequestKey: Hashable {
        var endpoint: String
        var status: Int
    }

    private let state = Mutex(State())

    package init() {}

    /// Records one answered request.
    /// - Parameters:
    ///   - endpoint: a fixed label (`resolve`, `admin`, …), never the raw path.
    ///   - seconds: time spent in the handler.
    package func recordRequest(endpoint: String, status: Int, seconds: Double) {
        state.withLock { state in
            state.requests[RequestKey(endpoint: endpoint, status: status), default: 0] += 1
            var histogram = state.latency[endpoint] ?? Histogram()
            if let bucket = Self.latencyBuckets.firstIndex(where: { seconds <= $0 }) {
                histogram.counts[bucket] += 1
            }
            histogram.sum += seconds
            histogram.total += 1
            state.latency[endpoint] = histogram
        }
    }

    /// Records what a resolution did: the route hit and the rules that fired or failed.
    package func recordResolution(routeID: String?, firedRuleIDs: [String], ruleErrors: Int, limitHits: Int) {
        state.withLock { state in
            if let routeID { state.routeHits[routeID, default: 0] += 1 }
            for rule in firedRuleIDs { state.ruleHits[rule, default: 0] += 1 }
            state.ruleErrors += ruleErrors
            state.ruleLimitHits += limitHits
        }
    }

    /// Records a reload attempt.
    package func recordReload(succeeded: Bool) {
        state.withLock { state in
            if succeeded { state.reloadsSucceeded += 1 } else { state.reloadsFailed += 1 }
            state.lastReloadSucceeded = succeeded
        }
    }

    /// Updates the gauges describing the current snapshot.
    package func recordSnapshot(routes: Int, rules: Int, adminVersion: Int) {
        state.withLock { state in
            state.routes = routes
            state.rules = rules
            state.adminVersion = adminVersion
        }
    }

    /// The Prometheus text exposition.
    package func render() -> String {
        let state = state.withLock { $0 }
        var out = ""
        func family(_ name: String, _ type: String, _ help: String) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }
        family("switchboard_http_requests_total", "counter", "HTTP requests answered, by endpoint and status.")
        for (key, count) in state.requests.sorted(by: { ($0.key.endpoint, $0.key.status) < ($1.key.endpoint, $1.key.status) }) {
            out += "switchboard_http_requests_total{endpoint=\"\(key.endpoint)\",status=\"\(key.status)\"} \(count)\n"
        }
        family("switchboard_http_request_duration_seconds", "histogram", "Time spent answering a request, by endpoint.")
        for (endpoint, histogram) in state.latency.sorted(by: { $0.key < $1.key }) {
            var cumulative = 0
            for (index, bound) in Self.latencyBuckets.enumerated() {
                cumulative += histogram.counts[index]
                out += "switchboard_http_request_duration_seconds_bucket{endpoint=\"\(endpoint)\",le=\"\(bound)\"} \(cumulative)\n"
            }
            out += "switchboard_http_request_duration_seconds_bucket{endpoint=\"\(endpoint)\",le=\"+Inf\"} \(histogram.total)\n"
            out += "switchboard_http_request_duration_seconds_sum{endpoint=\"\(endpoint)\"} \(histogram.sum)\n"
            out += "switchboard_http_request_duration_seconds_count{endpoint=\"\(endpoint)\"} \(histogram.total)\n"
        }
        family("switchboard_routes", "gauge", "Routes in the current snapshot.")
        out += "switchboard_routes \(state.routes)\n"
        family("switchboard_rules", "gauge", "Rewrite rules in the current snapshot.")
        out += "switchboard_rules \(state.rules)\n"
        family("switchboard_admin_version", "gauge", "Version of the admin state.")
        out += "switchboard_admin_version \(state.adminVersion)\n"
        family("switchboard_reloads_total", "counter", "Config reloads, by result.")
        out += "switchboard_reloads_total{result=\"ok\"} \(state.reloadsSucceeded)\n"
        out += "switchboard_reloads_total{result=\"failed\"} \(state.reloadsFailed)\n"
        family(
            "switchboard_config_last_reload_success", "gauge",
            "1 if the last reload succeeded, 0 if it failed (the previous config is still served).")
        out += "switchboard_config_last_reload_success \(state.lastReloadSucceeded ? 1 : 0)\n"
        family("switchboard_rule_errors_total", "counter", "Rewrites whose result did not parse, or whose regex failed.")
        out += "switchboard_rule_errors_total \(state.ruleErrors)\n"
        family(
            "switchboard_rule_limit_hits_total", "counter", "Rule matches stopped by the PCRE2 match/depth limits (counted as no match).")
        out += "switchboard_rule_limit_hits_total \(state.ruleLimitHits)\n"
        family("switchboard_route_hits_total", "counter", "Resolutions by matched route.")
        for (route, count) in state.routeHits.sorted(by: { $0.key < $1.key }) {
            out += "switchboard_route_hits_total{route=\"\(Self.escape(route))\"} \(count)\n"
        }
        family("switchboard_rule_hits_total", "counter", "Rewrites by rule.")
        for (rule, count) in state.ruleHits.sorted(by: { $0.key < $1.key }) {
            out += "switchboard_rule_hits_total{rule=\"\(Self.escape(rule))\"} \(count)\n"
        }
        return out
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
