import Foundation
import SwitchboardCore
import SwitchboardHTTP
import SwitchboardStore
import Synchronization

/// Resolutions counted over time (docs/analytics.md): per time bucket, by route (or
/// `unmatched`, or the error status), rule, platform, app version's major number and status,
/// and the most asked unmatched links ("orphans"), redacted as the traffic sample redacts.
///
/// A request only pushes an ``AnalyticsEvent`` (small values it already holds) into its own
/// thread's lane (``AnalyticsLanes``): no lock, no allocation, no parsing. The
/// ``AnalyticsService`` folds the lanes into flat counters of the current bucket
/// (``AnalyticsCounters``), off the request path, and adds them to the store every
/// `flush_seconds` as one flush numbered for this replica; a flush that fails is written again as it was, so it is never counted twice.
/// A query sums the store and what this replica has not flushed yet.
package final class Analytics: Sendable {
    /// `analytics` of `switchboard.yaml`.
    package let settings: ServerSettings.AnalyticsSettings
    /// Where the counts are kept; `nil` keeps them in memory only (the API-path benchmark).
    private let store: (any AnalyticsStore)?
    /// This process's id in the store's ledger of flushes.
    private let replica: String
    private let lanes = AnalyticsLanes()
    /// Whether unmatched links are kept (`orphans_per_bucket` above 0).
    private let keepsOrphans: Bool
    private let redaction: SampleRedaction
    private let clock: @Sendable () -> Double

    /// What was folded and not yet stored.
    private struct Tally {
        var counters: AnalyticsCounters
        /// The flush being written, or that failed and is written again next time.
        var pending: AnalyticsFlush?
        var sequence = 0
        var dropped = 0
        var failedFlushes = 0
    }

    private let tally: Mutex<Tally>
    /// Taken while a flush is written and while a query reads, so that a query never sees a
    /// flush both in the store and in memory.
    private let flushTurn = Mutex(())

    /// - Parameters:
    ///   - settings: `analytics` of `switchboard.yaml`.
    ///   - store: where the counts are kept.
    ///   - keepQueryValues: `traffic_sample.keep_query_values`, which orphan links keep too.
    ///   - clock: the time, in seconds since the Unix epoch.
    package init(
        settings: ServerSettings.AnalyticsSettings, store: (any AnalyticsStore)?, keepQueryValues: [String] = [],
        clock: @escaping @Sendable () -> Double
    ) {
        self.settings = settings
        self.store = store
        self.replica = UUID().uuidString.lowercased()
        self.redaction = SampleRedaction(keepQueryValues: keepQueryValues)
        self.clock = clock
        keepsOrphans = settings.orphansPerBucket > 0
        tally = Mutex(Tally(counters: AnalyticsCounters(orphansPerBucket: settings.orphansPerBucket)))
    }

    /// A short description of the store for logs.
    package var location: String { store?.location ?? "memory" }

    // MARK: - Counting (the request path)

    /// Counts an answer: its route and rules as the resolver gave them, its status, and the
    /// platform and app version of `asker` as already parsed. `link` says where the link is; it
    /// is read (at the fold) only for an unmatched link while orphans are kept.
    @inline(__always)
    func record(
        routeID: String?, firedRuleIDs: [String], status: Int, asker: RequestContext,
        link: @autoclosure () -> AnalyticsEvent.Link
    ) {
        let isOrphan = routeID == nil && status == 404 && keepsOrphans
        lanes.current?.push(
            AnalyticsEvent(
                routeID: routeID, firedRuleIDs: firedRuleIDs, status: status, platform: AnalyticsPlatform(asker.platform),
                major: asker.appVersion?.major, orphan: isOrphan ? link() : nil))
    }

    // MARK: - Folding and flushing (off the request path)

    /// The start of the bucket holding `seconds`.
    package func bucket(of seconds: Double) -> Int {
        let size = settings.bucket.seconds
        let whole = Int(seconds.rounded(.down))
        return (whole >= 0 ? whole : whole - size + 1) / size * size
    }

    /// Counts every event the lanes hold into the current bucket, and keeps the redacted link
    /// of each unmatched one.
    package func fold() {
        let bucket = bucket(of: clock())
        tally.withLock { tally in
            var number: Int?
            tally.dropped = lanes.drain { event in
                let bucketNumber = number ?? tally.counters.bucketNumber(bucket)
                number = bucketNumber
                tally.counters.count(event, into: bucketNumber)
                if let link = event.orphan, let url = Self.url(of: link), !url.isEmpty {
                    tally.counters.addOrphan(redaction.redact(url), bucket: bucket)
                }
            }
        }
    }

    /// The link an orphan's event points to.
    private static func url(of link: AnalyticsEvent.Link) -> String? {
        switch link {
        // Only the `url` parameter is decoded, not the whole query.
        case .query(let query): QueryParameters(unchecked: query).first(named: "url")
        case .url(let url): url
        }
    }

    /// The route key of a link nothing matched.
    package static let unmatched = "unmatched"
    /// The key of a platform or version the request did not say.
    package static let none = "none"

    /// Folds, then adds what was counted since the last flush to the store as one flush (or
    /// writes the flush that failed last time again, as it was).
    ///
    /// - Throws: ``AnalyticsStoreError`` when the store refused; the flush is kept for the next call.
    package func flush() throws(AnalyticsStoreError) {
        guard let store else { return }
        fold()
        try flushTurn.withLock { (_) throws(AnalyticsStoreError) in
            let flush = tally.withLock { tally -> AnalyticsFlush? in
                if let pending = tally.pending { return pending }
                guard !tally.counters.isEmpty else { return nil }
                tally.sequence += 1
                let flush = tally.counters.table().flush(replica: replica, sequence: tally.sequence)
                tally.counters = AnalyticsCounters(orphansPerBucket: settings.orphansPerBucket)
                tally.pending = flush
                return flush
            }
            guard let flush else { return }
            do throws(AnalyticsStoreError) {
                try store.write(flush)
            } catch {
                tally.withLock { $0.failedFlushes += 1 }
                throw error
            }
            tally.withLock { $0.pending = nil }
        }
    }

    /// Drops the buckets older than `retention_days` from the store.
    package func prune() throws(AnalyticsStoreError) {
        try store?.prune(before: oldestKept)
    }

    /// The start of the oldest bucket the retention keeps.
    package var oldestKept: Int {
        bucket(of: clock() - Double(settings.retentionDays * 86_400))
    }

    // MARK: - Reading

    /// The counts of `dimension` in the buckets from `from` up to, not including, `to`: the
    /// store's (every replica's) plus what this replica has not flushed yet, one per bucket and key.
    package func counts(from: Int, to: Int, _ dimension: AnalyticsDimension) throws(AnalyticsStoreError) -> [AnalyticsCount] {
        fold()
        return try flushTurn.withLock { (_) throws(AnalyticsStoreError) -> [AnalyticsCount] in
            var sum = AnalyticsTable(orphansPerBucket: settings.orphansPerBucket)
            for count in try store?.counts(from: from, to: to, dimension) ?? [] {
                sum.add(count.count, bucket: count.bucket, dimension, count.key)
            }
            tally.withLock { tally in
                for count in tally.pending?.counts ?? [] where count.dimension == dimension && count.bucket >= from && count.bucket < to {
                    sum.add(count.count, bucket: count.bucket, dimension, count.key)
                }
                for count in tally.counters.table().counts(from: from, to: to, dimension) {
                    sum.add(count.count, bucket: count.bucket, dimension, count.key)
                }
            }
            return sum.counts(from: from, to: to, dimension)
        }
    }

    /// The orphan links of the buckets from `from` up to, not including, `to`, one per bucket
    /// and link, the store's plus what this replica has not flushed yet.
    package func orphans(from: Int, to: Int) throws(AnalyticsStoreError) -> [OrphanCount] {
        fold()
        return try flushTurn.withLock { (_) throws(AnalyticsStoreError) -> [OrphanCount] in
            var sum: [OrphanKey: Int] = [:]
            for orphan in try store?.orphans(from: from, to: to) ?? [] {
                sum[OrphanKey(bucket: orphan.bucket, link: orphan.link), default: 0] += orphan.count
            }
            tally.withLock { tally in
                for orphan in tally.pending?.orphans ?? [] where orphan.bucket >= from && orphan.bucket < to {
                    sum[OrphanKey(bucket: orphan.bucket, link: orphan.link), default: 0] += orphan.count
                }
                for orphan in tally.counters.table().orphans(from: from, to: to) {
                    sum[OrphanKey(bucket: orphan.bucket, link: orphan.link), default: 0] += orphan.count
                }
            }
            return sum.map { OrphanCount(bucket: $0.key.bucket, link: $0.key.link, count: $0.value) }
        }
    }

    private struct OrphanKey: Hashable {
        var bucket: Int
        var link: String
    }

    /// Appends the analytics series to a Prometheus text exposition.
    package func renderMetrics(into out: inout String) {
        let (dropped, failed) = tally.withLock { ($0.dropped, $0.failedFlushes) }
        out += "# HELP switchboard_analytics_dropped_total Resolutions not counted in analytics because a thread's lane was full.\n"
        out += "# TYPE switchboard_analytics_dropped_total counter\nswitchboard_analytics_dropped_total \(dropped)\n"
        out += "# HELP switchboard_analytics_flush_failures_total Analytics flushes the store refused (written again at the next flush).\n"
        out += "# TYPE switchboard_analytics_flush_failures_total counter\nswitchboard_analytics_flush_failures_total \(failed)\n"
    }
}
