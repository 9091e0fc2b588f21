import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Keeps the analytics in `data_dir/analytics.log`, a file of ``StoredRecord``s
/// (``AnalyticsRecord``): a header, then one record per flush, each appended and fsync'd in
/// one write. A crash leaves at most the last record torn, which fails its length or checksum
/// and is dropped (its counts are lost, never counted twice: the flush was not acknowledged).
///
/// The whole file is summed in memory (bounded by the retention: buckets older than it are
/// dropped), and once the records of flushes outweigh the sum, the file is rewritten as the
/// header and one record of the sum (temp file, fsync, rename). The header's ledger keeps the
/// last flush of each replica, so that a flush written again is recognised after a compaction.
package final class FileAnalyticsStore: AnalyticsStore {
    /// The file's name in `data_dir`.
    package static let fileName = "analytics.log"

    /// The records of flushes may grow to the compacted sum's size, and at least to this,
    /// before the file is compacted.
    static let smallestCompactedLog = 1 << 20

    private struct State {
        var table: AnalyticsTable
        var ledger: [String: Int] = [:]
        /// Where the last whole record ends (the next append goes there).
        var end = 0
        var exists = false
        /// The size of the file as last compacted.
        var compactedBytes = 0
    }

    package let directory: String
    package var path: String { directory + "/" + Self.fileName }
    private let bucketSeconds: Int
    private let state: Mutex<State>

    /// Reads the file, if any.
    ///
    /// - Throws: ``AnalyticsStoreError``: `bucketChanged` when the file counts by another bucket,
    ///   `failed` when it cannot be read or is damaged (it is never modified then).
    package init(directory: String, bucketSeconds: Int, orphansPerBucket: Int) throws(AnalyticsStoreError) {
        self.directory = directory
        self.bucketSeconds = bucketSeconds
        var state = State(table: AnalyticsTable(orphansPerBucket: orphansPerBucket))
        let path = directory + "/" + Self.fileName
        let contents: [UInt8]?
        do throws(FileAdminStore.Failure) {
            contents = try DurableFile.contents(of: path)
        } catch {
            throw AnalyticsStoreError(.failed, error.message)
        }
        if let contents {
            state = try contents.withUnsafeBytes { bytes -> Result<State, AnalyticsStoreError> in
                var read = state
                do throws(AnalyticsStoreError) {
                    try Self.read(bytes, path: path, bucketSeconds: bucketSeconds, into: &read)
                    return .success(read)
                } catch {
                    return .failure(error)
                }
            }.get()
        }
        self.state = Mutex(state)
    }

    package var location: String { "file \(path)" }

    private static func read(
        _ bytes: UnsafeRawBufferPointer, path: String, bucketSeconds: Int, into state: inout State
    ) throws(AnalyticsStoreError) {
        let (payloads, end) = StoredRecord.scan(bytes)
        if !StoredRecord.wholeRecords(after: end, in: bytes).isEmpty {
            throw corrupt(path, "the record at byte \(end) is damaged, and whole records follow it")
        }
        guard let first = payloads.first else { return }
        do {
            let header = try AnalyticsRecord.header(UnsafeRawBufferPointer(rebasing: bytes[first]))
            guard header.format == AnalyticsRecord.format else {
                throw corrupt(path, "its format is '\(header.format)', not '\(AnalyticsRecord.format)'")
            }
            state.ledger = header.ledger
            for payload in payloads.dropFirst() {
                let flush = try AnalyticsRecord.flush(UnsafeRawBufferPointer(rebasing: bytes[payload]))
                // The sum a compaction wrote belongs to no replica.
                if flush.replica.isEmpty {
                    state.table.add(flush)
                    continue
                }
                if let last = state.ledger[flush.replica], flush.sequence <= last { continue }
                state.ledger[flush.replica] = flush.sequence
                state.table.add(flush)
            }
            if header.bucketSeconds != bucketSeconds, !state.table.isEmpty {
                throw AnalyticsStoreFactory.bucketChanged(
                    stored: header.bucketSeconds, asked: bucketSeconds, in: path, remedy: "move \(path) away")
            }
            if header.bucketSeconds != bucketSeconds {
                // Nothing counted yet: the next write starts a file with the new bucket.
                state = State(table: state.table)
                return
            }
        } catch let error as AnalyticsStoreError {
            throw error
        } catch {
            throw corrupt(path, "the record at byte \(first.lowerBound): \(error)")
        }
        state.end = end
        state.exists = true
        state.compactedBytes = payloads.count == 2 ? end : 0
    }

    private static func corrupt(_ path: String, _ reason: String) -> AnalyticsStoreError {
        AnalyticsStoreError(
            .failed, "\(path) is corrupt (\(reason)); it was not modified. Move it away to start counting afresh")
    }

    package func write(_ flush: AnalyticsFlush) throws(AnalyticsStoreError) {
        try state.withLock { (state) throws(AnalyticsStoreError) in
            if let last = state.ledger[flush.replica], flush.sequence <= last { return }
            var framed = state.exists ? [] : AnalyticsRecord.frame(header(ledger: state.ledger))
            framed += AnalyticsRecord.frame(flush)
            do throws(FileAdminStore.Failure) {
                if !state.exists { try DurableFile.createDirectory(directory) }
                try DurableFile.append(framed, to: path, at: state.end, creating: !state.exists, in: directory)
            } catch {
                throw AnalyticsStoreError(.failed, error.message)
            }
            state.exists = true
            state.end += framed.count
            state.ledger[flush.replica] = flush.sequence
            state.table.add(flush)
            if state.end > max(2 * state.compactedBytes, Self.smallestCompactedLog) { try compact(&state) }
        }
    }

    package func counts(from: Int, to: Int, _ dimension: AnalyticsDimension) -> [AnalyticsCount] {
        state.withLock { $0.table.counts(from: from, to: to, dimension) }
    }

    package func orphans(from: Int, to: Int) -> [OrphanCount] {
        state.withLock { $0.table.orphans(from: from, to: to) }
    }

    package func prune(before cutoff: Int) throws(AnalyticsStoreError) {
        try state.withLock { (state) throws(AnalyticsStoreError) in
            guard state.table.prune(before: cutoff) else { return }
            try compact(&state)
        }
    }

    private func header(ledger: [String: Int]) -> AnalyticsRecord.Header {
        AnalyticsRecord.Header(format: AnalyticsRecord.format, bucketSeconds: bucketSeconds, ledger: ledger)
    }

    /// Rewrites the file as the header and one record of the whole sum.
    private func compact(_ state: inout State) throws(AnalyticsStoreError) {
        let bytes =
            AnalyticsRecord.frame(header(ledger: state.ledger))
            + AnalyticsRecord.frame(state.table.flush(replica: "", sequence: 0))
        do throws(FileAdminStore.Failure) {
            try DurableFile.createDirectory(directory)
            try DurableFile.replace(path, with: bytes, temporary: directory + "/.\(Self.fileName).\(getpid()).tmp", in: directory)
        } catch {
            throw AnalyticsStoreError(.failed, error.message)
        }
        state.exists = true
        state.end = bytes.count
        state.compactedBytes = bytes.count
    }
}
