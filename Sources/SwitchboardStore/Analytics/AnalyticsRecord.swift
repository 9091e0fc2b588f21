import Foundation
import SwitchboardCore

/// The payloads of the analytics file's records (each framed as a ``StoredRecord``): a header,
/// then one record per flush.
///
/// ```
/// {"format":"switchboard-analytics-1","bucket_seconds":3600,"ledger":{"r1":41}}
/// {"replica":"r1","sequence":42,"counts":[{"b":1764316800,"d":"route","k":"product","n":3}],"orphans":[{"b":1764316800,"l":"shopapp://old?cid=XX00","n":2}]}
/// ```
enum AnalyticsRecord {
    static let format = "switchboard-analytics-1"

    /// The first record: the bucket size of every count in the file, and the last flush of
    /// each replica that a compaction folded into the records after it.
    struct Header: Codable {
        var format: String
        var bucketSeconds: Int
        var ledger: [String: Int]

        enum CodingKeys: String, CodingKey {
            case format, ledger
            case bucketSeconds = "bucket_seconds"
        }
    }

    private struct StoredCount: Codable {
        var b: Int
        var d: String
        var k: String
        var n: Int
    }

    private struct StoredOrphan: Codable {
        var b: Int
        var l: String
        var n: Int
    }

    private struct StoredFlush: Codable {
        var replica: String
        var sequence: Int
        var counts: [StoredCount]
        var orphans: [StoredOrphan]
    }

    /// The framed header.
    static func frame(_ header: Header) -> [UInt8] {
        let ledger = header.ledger.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.number(Double($0.value))) }
        return StoredRecord.frame(
            JSONValue.object([
                ("format", .string(header.format)), ("bucket_seconds", .number(Double(header.bucketSeconds))),
                ("ledger", .object(ledger)),
            ]).jsonText)
    }

    /// The framed flush.
    static func frame(_ flush: AnalyticsFlush) -> [UInt8] {
        let counts = flush.counts.map { count in
            JSONValue.object([
                ("b", .number(Double(count.bucket))), ("d", .string(count.dimension.rawValue)), ("k", .string(count.key)),
                ("n", .number(Double(count.count))),
            ])
        }
        let orphans = flush.orphans.map { orphan in
            JSONValue.object([
                ("b", .number(Double(orphan.bucket))), ("l", .string(orphan.link)), ("n", .number(Double(orphan.count))),
            ])
        }
        return StoredRecord.frame(
            JSONValue.object([
                ("replica", .string(flush.replica)), ("sequence", .number(Double(flush.sequence))),
                ("counts", .array(counts)), ("orphans", .array(orphans)),
            ]).jsonText)
    }

    static func header(_ payload: UnsafeRawBufferPointer) throws -> Header {
        try JSONDecoder().decode(Header.self, from: Data(payload))
    }

    static func flush(_ payload: UnsafeRawBufferPointer) throws -> AnalyticsFlush {
        let stored = try JSONDecoder().decode(StoredFlush.self, from: Data(payload))
        var counts: [AnalyticsCount] = []
        counts.reserveCapacity(stored.counts.count)
        for count in stored.counts {
            guard let dimension = AnalyticsDimension(rawValue: count.d) else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unknown dimension '\(count.d)'"))
            }
            counts.append(AnalyticsCount(bucket: count.b, dimension: dimension, key: count.k, count: count.n))
        }
        return AnalyticsFlush(
            replica: stored.replica, sequence: stored.sequence, counts: counts,
            orphans: stored.orphans.map { OrphanCount(bucket: $0.b, link: $0.l, count: $0.n) })
    }
}
