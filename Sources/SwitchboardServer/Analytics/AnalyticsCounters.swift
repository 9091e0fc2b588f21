import SwitchboardStore

/// What the analytics service folded and has not flushed yet, as flat counters: a route or
/// rule id gets a small number the first time it is counted (``AnalyticsKeyNumbers``), and
/// each bucket holds arrays of counts indexed by those numbers and by platform code, and short
/// lists of the few statuses and app-version majors a bucket sees. An event then costs a few
/// increments; keys become strings only in ``table()``, when flushing or answering a query.
struct AnalyticsCounters {
    /// Counts by a small integer key (a status, a major), in the order first counted: a bucket
    /// sees a handful of them, so a scan is cheaper than hashing.
    private struct SmallCounts {
        private(set) var keys: [Int] = []
        private(set) var counts: [Int] = []

        @inline(__always)
        mutating func add(_ key: Int) {
            if let index = keys.firstIndex(of: key) {
                counts[index] += 1
            } else {
                keys.append(key)
                counts.append(1)
            }
        }
    }

    /// The counts of one bucket.
    private struct Bucket {
        let start: Int
        /// By route number (``AnalyticsCounters/routeIDs``).
        var routes: [Int] = []
        /// By rule number (``AnalyticsCounters/ruleIDs``).
        var rules: [Int] = []
        /// The route key of a resolution without a route: by its status.
        var unrouted = SmallCounts()
        var statuses = SmallCounts()
        /// By ``AnalyticsPlatform`` raw value.
        var platforms = [Int](repeating: 0, count: AnalyticsPlatform.allCases.count)
        /// By major number, ``AnalyticsCounters/noMajor`` when the request said no version.
        var majors = SmallCounts()
    }

    /// The major key of a request that said no version (majors are never negative).
    private static let noMajor = -1

    private var routeIDs = AnalyticsKeyNumbers()
    private var ruleIDs = AnalyticsKeyNumbers()
    private var buckets: [Bucket] = []
    /// The orphan links, kept as the store keeps them (only unmatched links reach them).
    private var orphans: AnalyticsTable

    /// - Parameter orphansPerBucket: orphan links kept per bucket.
    init(orphansPerBucket: Int) {
        orphans = AnalyticsTable(orphansPerBucket: orphansPerBucket)
    }

    /// Whether nothing was counted.
    var isEmpty: Bool { buckets.isEmpty && orphans.isEmpty }

    /// The number of the bucket starting at `start`, to count into with ``count(_:into:)``.
    mutating func bucketNumber(_ start: Int) -> Int {
        if let number = buckets.lastIndex(where: { $0.start == start }) { return number }
        buckets.append(Bucket(start: start))
        return buckets.count - 1
    }

    /// Counts `event` under its route, status, platform, major and rules in bucket `number`.
    @inline(__always)
    mutating func count(_ event: borrowing AnalyticsEvent, into number: Int) {
        if let routeID = event.routeID {
            Self.add(at: routeIDs.number(of: routeID), to: &buckets[number].routes)
        } else {
            buckets[number].unrouted.add(event.status)
        }
        for ruleID in event.firedRuleIDs {
            Self.add(at: ruleIDs.number(of: ruleID), to: &buckets[number].rules)
        }
        buckets[number].statuses.add(event.status)
        buckets[number].platforms[Int(event.platform.rawValue)] += 1
        buckets[number].majors.add(event.major ?? Self.noMajor)
    }

    /// Counts one asking of the orphan `link` (already redacted) in the bucket starting at `start`.
    mutating func addOrphan(_ link: String, bucket start: Int) {
        orphans.addOrphan(link, bucket: start)
    }

    /// Everything counted, keyed by strings as the store keeps it.
    func table() -> AnalyticsTable {
        var table = orphans
        for bucket in buckets {
            let start = bucket.start
            for (route, count) in bucket.routes.enumerated() where count > 0 {
                table.add(count, bucket: start, .route, routeIDs.keys[route])
            }
            for (status, count) in zip(bucket.unrouted.keys, bucket.unrouted.counts) {
                table.add(count, bucket: start, .route, status == 404 ? Analytics.unmatched : String(status))
            }
            for (rule, count) in bucket.rules.enumerated() where count > 0 {
                table.add(count, bucket: start, .rule, ruleIDs.keys[rule])
            }
            for (status, count) in zip(bucket.statuses.keys, bucket.statuses.counts) {
                table.add(count, bucket: start, .status, String(status))
            }
            for (platform, count) in zip(AnalyticsPlatform.allCases, bucket.platforms) where count > 0 {
                table.add(count, bucket: start, .platform, platform.key)
            }
            for (major, count) in zip(bucket.majors.keys, bucket.majors.counts) {
                table.add(count, bucket: start, .version, major == Self.noMajor ? Analytics.none : String(major))
            }
        }
        return table
    }

    /// Adds one at `index` of `counts`, growing it as new numbers are given.
    @inline(__always)
    private static func add(at index: Int, to counts: inout [Int]) {
        if index >= counts.count { counts.append(contentsOf: repeatElement(0, count: index - counts.count + 1)) }
        counts[index] += 1
    }
}
