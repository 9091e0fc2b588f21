/// What analytics count a resolution by: each resolution counts once under its route, its
/// status, its platform and its app version's major number, and once under each rule that
/// fired for it.
package enum AnalyticsDimension: String, Sendable, Hashable, CaseIterable {
    /// The matched route's id, `unmatched`, or the error status (`400`).
    case route
    /// The id of a rule that fired.
    case rule
    /// `ios`, `android`, `web`, `other` or `none`.
    case platform
    /// The app version's major number, or `none`.
    case version
    /// The HTTP status of the answer.
    case status
}

/// Resolutions (or rule firings) counted in one time bucket under one key of one dimension.
package struct AnalyticsCount: Sendable, Hashable {
    /// The bucket's start, in seconds since the Unix epoch (UTC).
    package var bucket: Int
    package var dimension: AnalyticsDimension
    package var key: String
    package var count: Int

    package init(bucket: Int, dimension: AnalyticsDimension, key: String, count: Int) {
        self.bucket = bucket
        self.dimension = dimension
        self.key = key
        self.count = count
    }
}

/// An unmatched link, redacted to its shape, and how often it was asked in one bucket.
package struct OrphanCount: Sendable, Hashable {
    /// The bucket's start, in seconds since the Unix epoch (UTC).
    package var bucket: Int
    /// The link as the traffic sample redacts it: never a secret nor an identifying value.
    package var link: String
    package var count: Int

    package init(bucket: Int, link: String, count: Int) {
        self.bucket = bucket
        self.link = link
        self.count = count
    }
}

/// What one replica adds to the stored analytics in one flush: its counts since the flush
/// before. A flush is identified by its replica and sequence number, so that a flush written
/// again (a retry after an error) is counted once.
package struct AnalyticsFlush: Sendable, Hashable {
    /// The replica that counted (one id per server process).
    package var replica: String
    /// The replica's flush number, from 1.
    package var sequence: Int
    package var counts: [AnalyticsCount]
    package var orphans: [OrphanCount]

    package init(replica: String, sequence: Int, counts: [AnalyticsCount], orphans: [OrphanCount]) {
        self.replica = replica
        self.sequence = sequence
        self.counts = counts
        self.orphans = orphans
    }
}
