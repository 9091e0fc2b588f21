/// Analytics counts summed per bucket, dimension and key, and the orphan links of each bucket
/// (an ``OrphanSketch`` each): what the file store holds in memory, and what a server has
/// counted and not yet flushed.
package struct AnalyticsTable: Sendable, Hashable {
    /// Where a count is kept.
    package struct Key: Sendable, Hashable {
        package var bucket: Int
        package var dimension: AnalyticsDimension
        package var key: String
    }

    /// Orphan links kept per bucket.
    package let orphansPerBucket: Int
    package private(set) var counts: [Key: Int] = [:]
    package private(set) var orphans: [Int: OrphanSketch] = [:]

    package init(orphansPerBucket: Int) {
        self.orphansPerBucket = orphansPerBucket
    }

    /// Whether it holds nothing.
    package var isEmpty: Bool { counts.isEmpty && orphans.isEmpty }

    /// Adds `count` under `key` of `dimension` in `bucket`.
    package mutating func add(_ count: Int, bucket: Int, _ dimension: AnalyticsDimension, _ key: String) {
        counts[Key(bucket: bucket, dimension: dimension, key: key), default: 0] += count
    }

    /// Adds `count` askings of the orphan `link` in `bucket`.
    package mutating func addOrphan(_ link: String, bucket: Int, count: Int = 1) {
        orphans[bucket, default: OrphanSketch(capacity: orphansPerBucket)].add(link, count: count)
    }

    /// Adds what `flush` counted.
    package mutating func add(_ flush: AnalyticsFlush) {
        for count in flush.counts { add(count.count, bucket: count.bucket, count.dimension, count.key) }
        for orphan in flush.orphans { addOrphan(orphan.link, bucket: orphan.bucket, count: orphan.count) }
    }

    /// Adds everything `other` holds.
    package mutating func add(_ other: AnalyticsTable) {
        counts.merge(other.counts, uniquingKeysWith: +)
        for (bucket, sketch) in other.orphans {
            orphans[bucket, default: OrphanSketch(capacity: orphansPerBucket)].merge(sketch)
        }
    }

    /// Everything it holds as a flush of `replica` numbered `sequence`, in a stable order.
    package func flush(replica: String, sequence: Int) -> AnalyticsFlush {
        AnalyticsFlush(replica: replica, sequence: sequence, counts: allCounts, orphans: allOrphans)
    }

    /// Every count, ordered by bucket, dimension and key.
    package var allCounts: [AnalyticsCount] {
        counts.map { AnalyticsCount(bucket: $0.key.bucket, dimension: $0.key.dimension, key: $0.key.key, count: $0.value) }
            .sorted { ($0.bucket, $0.dimension.rawValue, $0.key) < ($1.bucket, $1.dimension.rawValue, $1.key) }
    }

    /// Every orphan link of every bucket, ordered by bucket and link.
    package var allOrphans: [OrphanCount] {
        orphans.flatMap { bucket, sketch in
            sketch.entries.map { OrphanCount(bucket: bucket, link: $0.key, count: $0.value.count) }
        }
        .sorted { ($0.bucket, $0.link) < ($1.bucket, $1.link) }
    }

    /// The counts of `dimension` in the buckets from `from` up to, not including, `to`.
    package func counts(from: Int, to: Int, _ dimension: AnalyticsDimension) -> [AnalyticsCount] {
        counts.compactMap { key, count in
            guard key.dimension == dimension, key.bucket >= from, key.bucket < to else { return nil }
            return AnalyticsCount(bucket: key.bucket, dimension: dimension, key: key.key, count: count)
        }
    }

    /// The orphan links of the buckets from `from` up to, not including, `to`.
    package func orphans(from: Int, to: Int) -> [OrphanCount] {
        orphans.flatMap { bucket, sketch -> [OrphanCount] in
            guard bucket >= from, bucket < to else { return [] }
            return sketch.entries.map { OrphanCount(bucket: bucket, link: $0.key, count: $0.value.count) }
        }
    }

    /// Drops the buckets that start before `cutoff`; returns whether any was dropped.
    @discardableResult
    package mutating func prune(before cutoff: Int) -> Bool {
        let countsBefore = counts.count
        let orphansBefore = orphans.count
        counts = counts.filter { $0.key.bucket >= cutoff }
        orphans = orphans.filter { $0.key >= cutoff }
        return counts.count != countsBefore || orphans.count != orphansBefore
    }
}
