import SwitchboardCore
import SwitchboardHTTP
import SwitchboardStore

/// `GET /admin/analytics` (counts over time by one dimension, JSON or CSV) and
/// `GET /admin/analytics/orphans` (the most asked unmatched links), both for a `read` token
/// (docs/analytics.md).
struct AnalyticsEndpoint: Sendable {
    /// The most keys (or orphan links) `limit` may ask for.
    static let maximumLimit = 10_000
    /// Keys (or orphan links) answered when `limit` is not given.
    static let defaultLimit = 100

    let context: ServerContext

    /// The buckets a request asks for: from the bucket holding `from` up to, not including, `to`.
    struct Range {
        var from: Int
        var to: Int
    }

    /// `GET /admin/analytics?from&to&by=route|rule|platform|version|status[&format=csv][&limit]`.
    func counts(_ request: APIRequest) throws(APIError) -> HTTPResponse {
        let analytics = try enabledAnalytics()
        let byName = try request.queryValue("by") ?? AnalyticsDimension.route.rawValue
        guard let dimension = AnalyticsDimension(rawValue: byName) else {
            throw APIError.badRequest(
                "unknown_dimension",
                "by must be one of \(AnalyticsDimension.allCases.map(\.rawValue).joined(separator: ", ")), not '\(byName)'")
        }
        let format = try request.queryValue("format") ?? "json"
        guard format == "json" || format == "csv" else {
            throw APIError.badRequest("invalid_parameter", "format must be json or csv, not '\(format)'")
        }
        let range = try self.range(request, analytics)
        let limit = try self.limit(request)
        let counts: [AnalyticsCount]
        do {
            counts = try analytics.counts(from: range.from, to: range.to, dimension)
        } catch {
            throw Self.storeError(error)
        }
        if format == "csv" { return Self.csv(counts) }
        var totalsByBucket: [Int: Int] = [:]
        var byKey: [String: [Int: Int]] = [:]
        for count in counts {
            totalsByBucket[count.bucket, default: 0] += count.count
            byKey[count.key, default: [:]][count.bucket, default: 0] += count.count
        }
        let keys = byKey.map { key, buckets in (key: key, total: buckets.values.reduce(0, +), buckets: buckets) }
            .sorted { ($0.total, $1.key) > ($1.total, $0.key) }
        func points(_ buckets: [Int: Int]) -> JSONValue {
            .array(
                buckets.sorted { $0.key < $1.key }.map {
                    .object([("start", .string(RFC3339.string(Double($0.key)))), ("count", .number(Double($0.value)))])
                })
        }
        let body = JSONValue.object([
            ("by", .string(dimension.rawValue)), ("bucket", .string(analytics.settings.bucket.rawValue)),
            ("from", .string(RFC3339.string(Double(range.from)))), ("to", .string(RFC3339.string(Double(range.to)))),
            ("total", .number(Double(totalsByBucket.values.reduce(0, +)))),
            ("totals", points(totalsByBucket)),
            (
                "keys",
                .array(
                    keys.prefix(limit).map { key in
                        .object([
                            ("key", .string(key.key)), ("total", .number(Double(key.total))), ("counts", points(key.buckets)),
                        ])
                    })
            ),
        ])
        return .json(body.jsonBytes)
    }

    /// `GET /admin/analytics/orphans?from&to[&limit]`: unmatched links by shape, most asked first.
    func orphans(_ request: APIRequest) throws(APIError) -> HTTPResponse {
        let analytics = try enabledAnalytics()
        let range = try self.range(request, analytics)
        let limit = try self.limit(request)
        let orphans: [OrphanCount]
        do {
            orphans = try analytics.orphans(from: range.from, to: range.to)
        } catch {
            throw Self.storeError(error)
        }
        var byLink: [String: (count: Int, last: Int)] = [:]
        for orphan in orphans {
            let known = byLink[orphan.link] ?? (0, orphan.bucket)
            byLink[orphan.link] = (known.count + orphan.count, max(known.last, orphan.bucket))
        }
        let sorted = byLink.sorted { ($0.value.count, $1.key) > ($1.value.count, $0.key) }
        let body = JSONValue.object([
            ("bucket", .string(analytics.settings.bucket.rawValue)),
            ("from", .string(RFC3339.string(Double(range.from)))), ("to", .string(RFC3339.string(Double(range.to)))),
            (
                "orphans",
                .array(
                    sorted.prefix(limit).map { link, value in
                        .object([
                            ("link", .string(link)), ("count", .number(Double(value.count))),
                            ("last_seen", .string(RFC3339.string(Double(value.last)))),
                        ])
                    })
            ),
        ])
        return .json(body.jsonBytes)
    }

    private func enabledAnalytics() throws(APIError) -> Analytics {
        guard let analytics = context.analytics else {
            throw APIError(
                status: 404, code: "analytics_disabled",
                message: "analytics are off on this server: set analytics.enabled to true in switchboard.yaml and restart")
        }
        return analytics
    }

    /// `from` and `to` (RFC 3339 with an offset, or seconds since the Unix epoch); by default
    /// the last day (hour buckets) or the last 30 days (day buckets) up to now.
    private func range(_ request: APIRequest, _ analytics: Analytics) throws(APIError) -> Range {
        let now = context.clock()
        let to = try Self.time(request, "to") ?? now
        let span = analytics.settings.bucket == .hour ? 86_400.0 : 30 * 86_400.0
        let from = try Self.time(request, "from") ?? max(to - span, Double(analytics.oldestKept))
        guard from <= to else {
            throw APIError.badRequest(
                "invalid_range", "from (\(RFC3339.string(from))) is after to (\(RFC3339.string(to))): swap them")
        }
        guard analytics.bucket(of: from) >= analytics.oldestKept else {
            throw APIError.badRequest(
                "range_beyond_retention",
                "from (\(RFC3339.string(from))) is older than the retention of \(analytics.settings.retentionDays) days: "
                    + "ask from \(RFC3339.string(Double(analytics.oldestKept))) or later")
        }
        // `to` is exclusive, but the bucket holding it is asked for when it is not a bucket's start.
        let end = analytics.bucket(of: to)
        return Range(from: analytics.bucket(of: from), to: Double(end) == to ? end : end + analytics.settings.bucket.seconds)
    }

    private static func time(_ request: APIRequest, _ name: String) throws(APIError) -> Double? {
        guard let text = try request.queryValue(name) else { return nil }
        if let seconds = Int(text) { return Double(seconds) }
        guard let seconds = RequestContext.seconds(rfc3339: text) else {
            throw APIError.badRequest(
                "invalid_parameter",
                "\(name) must be an RFC 3339 date-time with an offset (2026-11-28T00:00:00Z) or seconds since 1970, not '\(text)'")
        }
        return seconds
    }

    private func limit(_ request: APIRequest) throws(APIError) -> Int {
        guard let text = try request.queryValue("limit") else { return Self.defaultLimit }
        guard let limit = Int(text), (1...Self.maximumLimit).contains(limit) else {
            throw APIError.badRequest("invalid_parameter", "limit must be a number from 1 to \(Self.maximumLimit), not '\(text)'")
        }
        return limit
    }

    private static func storeError(_ error: AnalyticsStoreError) -> APIError {
        APIError(status: 503, code: "analytics_unavailable", message: "the analytics store cannot be read: \(error.message)")
    }

    /// `bucket,key,count`, one row per bucket and key, by bucket then key.
    private static func csv(_ counts: [AnalyticsCount]) -> HTTPResponse {
        var text = "bucket,key,count\n"
        for count in counts.sorted(by: { ($0.bucket, $0.key) < ($1.bucket, $1.key) }) {
            text += "\(RFC3339.string(Double(count.bucket))),\(csvField(count.key)),\(count.count)\n"
        }
        return .text(text, contentType: "text/csv; charset=utf-8")
    }

    /// `field` quoted when it holds a comma, a quote or a line break (RFC 4180).
    static func csvField(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        var quoted = "\""
        for character in field {
            quoted.append(character)
            if character == "\"" { quoted.append(character) }
        }
        return quoted + "\""
    }
}
