import Foundation
import SwitchboardStore
import SwitchboardTestSupport
import Testing

/// The analytics file and the orphan sketch.
@Suite("Analytics store")
struct AnalyticsStoreTests {
    static let hour = 3_600

    static func flush(_ sequence: Int, replica: String = "r1", product: Int = 1, orphan: String? = nil) -> AnalyticsFlush {
        AnalyticsFlush(
            replica: replica, sequence: sequence,
            counts: [AnalyticsCount(bucket: 7_200, dimension: .route, key: "product", count: product)],
            orphans: orphan.map { [OrphanCount(bucket: 7_200, link: $0, count: 1)] } ?? [])
    }

    static func product(_ store: FileAnalyticsStore) -> Int {
        store.counts(from: 0, to: 100_000, .route).first { $0.key == "product" }?.count ?? 0
    }

    @Test("a flush written twice counts once, also after a compaction and a restart")
    func flushesAreIdempotent() throws {
        let directory = try TemporaryDirectory()
        let store = try FileAnalyticsStore(directory: directory.path, bucketSeconds: Self.hour, orphansPerBucket: 10)
        try store.write(Self.flush(1, product: 2))
        try store.write(Self.flush(1, product: 2))
        try store.write(Self.flush(2, product: 3))
        try store.write(Self.flush(1, replica: "r2", product: 5))
        #expect(Self.product(store) == 10)
        try store.write(
            AnalyticsFlush(
                replica: "old", sequence: 1, counts: [AnalyticsCount(bucket: 0, dimension: .route, key: "x", count: 1)],
                orphans: []))
        try store.prune(before: Self.hour)  // drops bucket 0: the file is compacted
        let reopened = try FileAnalyticsStore(directory: directory.path, bucketSeconds: Self.hour, orphansPerBucket: 10)
        #expect(Self.product(reopened) == 10)
        try reopened.write(Self.flush(2, product: 3))
        #expect(Self.product(reopened) == 10)
    }

    @Test("a torn last record is dropped, and the next flush goes where it began")
    func tornTailIsDropped() throws {
        let directory = try TemporaryDirectory()
        let store = try FileAnalyticsStore(directory: directory.path, bucketSeconds: Self.hour, orphansPerBucket: 10)
        try store.write(Self.flush(1, product: 2))
        let path = directory.path + "/" + FileAnalyticsStore.fileName
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("120 0badf00d {\"replica\":\"r1\",\"seq".utf8))
        try handle.close()
        let reopened = try FileAnalyticsStore(directory: directory.path, bucketSeconds: Self.hour, orphansPerBucket: 10)
        #expect(Self.product(reopened) == 2)
        try reopened.write(Self.flush(1, replica: "r3", product: 4))
        let again = try FileAnalyticsStore(directory: directory.path, bucketSeconds: Self.hour, orphansPerBucket: 10)
        #expect(Self.product(again) == 6)
    }

    @Test("the retention drops old buckets from memory and from the file")
    func retentionPrunes() throws {
        let directory = try TemporaryDirectory()
        let store = try FileAnalyticsStore(directory: directory.path, bucketSeconds: Self.hour, orphansPerBucket: 10)
        try store.write(Self.flush(1, orphan: "shopapp://gone"))
        try store.prune(before: 10_800)
        #expect(store.counts(from: 0, to: 100_000, .route).isEmpty && store.orphans(from: 0, to: 100_000).isEmpty)
        let reopened = try FileAnalyticsStore(directory: directory.path, bucketSeconds: Self.hour, orphansPerBucket: 10)
        #expect(reopened.counts(from: 0, to: 100_000, .route).isEmpty)
    }

    @Test("another bucket size under stored counts is refused with what to do")
    func bucketChangeIsRefused() throws {
        let directory = try TemporaryDirectory()
        try FileAnalyticsStore(directory: directory.path, bucketSeconds: Self.hour, orphansPerBucket: 10).write(Self.flush(1))
        #expect {
            try FileAnalyticsStore(directory: directory.path, bucketSeconds: 86_400, orphansPerBucket: 10)
        } throws: { error in
            let error = try #require(error as? AnalyticsStoreError)
            return error.kind == .bucketChanged && error.message.contains("set analytics.bucket back to 'hour'")
        }
    }

    @Test("the orphan sketch keeps a fixed number of links, and always a link asked more than total/capacity times")
    func sketchIsBounded() {
        // 500 links asked once, then a frequent link every other time among 500 more: 500 of
        // 1,500 askings, above 1,500 / 4, so the sketch must hold it, counted at least 500 times.
        var sketch = OrphanSketch(capacity: 4)
        for index in 0..<500 { sketch.add("early-\(index)") }
        for index in 0..<500 {
            sketch.add("frequent")
            sketch.add("late-\(index)")
        }
        #expect(sketch.entries.count == 4)
        let frequent = sketch.entries["frequent"]
        #expect(frequent != nil && (frequent?.count ?? 0) >= 500 && (frequent?.count ?? 0) - (frequent?.error ?? 0) <= 500)
        #expect(sketch.entries.values.reduce(0) { $0 + $1.count } == 1_500)
    }
}
