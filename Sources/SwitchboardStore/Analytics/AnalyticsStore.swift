/// Where the analytics counts live: a file in `data_dir` (``FileAnalyticsStore``) or the
/// PostgreSQL database replicas share. Each server process adds its counts as flushes, and a
/// query answers the sum of every flush of every replica.
package protocol AnalyticsStore: Sendable {
    /// Adds `flush` durably; returns once it is stored. A flush already stored (the same replica
    /// and sequence) is not counted again, so a flush that failed may be written again as is.
    func write(_ flush: AnalyticsFlush) throws(AnalyticsStoreError)

    /// The stored counts of `dimension` in the buckets from `from` up to, not including, `to`,
    /// summed over the replicas.
    func counts(from: Int, to: Int, _ dimension: AnalyticsDimension) throws(AnalyticsStoreError) -> [AnalyticsCount]

    /// The stored orphan links of the buckets from `from` up to, not including, `to`, summed
    /// over the replicas.
    func orphans(from: Int, to: Int) throws(AnalyticsStoreError) -> [OrphanCount]

    /// Drops the buckets that start before `cutoff` (the retention).
    func prune(before cutoff: Int) throws(AnalyticsStoreError)

    /// A short description for logs (`file /data/analytics.log`).
    var location: String { get }
}

/// Why analytics could not be stored or read.
package struct AnalyticsStoreError: Error, Sendable, CustomStringConvertible {
    package enum Kind: Sendable {
        /// The stored data uses another bucket size than the settings ask for.
        case bucketChanged
        /// The store cannot be reached (retry later).
        case unavailable
        /// Reading or writing failed otherwise (a corrupt file, a full disk).
        case failed
    }

    package let kind: Kind
    package let message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package var description: String { message }
}

/// Picks the analytics store that goes with the admin store.
package enum AnalyticsStoreFactory {
    /// The analytics store beside the admin store named by `choice`: `dataDirectory/analytics.log`
    /// for the file store, the same database for a `postgres://` URL.
    ///
    /// - Parameters:
    ///   - bucketSeconds: the bucket size the settings ask for; the stored data must use it.
    ///   - orphansPerBucket: orphan links kept per bucket.
    /// - Throws: ``AnalyticsStoreError`` (`bucketChanged` when the stored data uses another bucket).
    package static func open(
        choice: String?, dataDirectory: String, bucketSeconds: Int, orphansPerBucket: Int
    ) throws(AnalyticsStoreError) -> any AnalyticsStore {
        guard let choice, choice != "file" else {
            return try FileAnalyticsStore(
                directory: dataDirectory, bucketSeconds: bucketSeconds, orphansPerBucket: orphansPerBucket)
        }
        return try PostgresAnalyticsStore(url: choice, bucketSeconds: bucketSeconds, orphansPerBucket: orphansPerBucket)
    }

    /// The error of stored data whose bucket is not the one the settings ask for.
    static func bucketChanged(stored: Int, asked: Int, in location: String, remedy: String) -> AnalyticsStoreError {
        func name(_ seconds: Int) -> String { seconds == 86_400 ? "day" : seconds == 3_600 ? "hour" : "\(seconds) s" }
        return AnalyticsStoreError(
            .bucketChanged,
            "analytics.bucket is '\(name(asked))' but the analytics in \(location) are counted by '\(name(stored))': "
                + "set analytics.bucket back to '\(name(stored))', or \(remedy) to start counting afresh "
                + "(the stored counts are kept until then)")
    }
}
