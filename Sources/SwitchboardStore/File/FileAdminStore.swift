import Foundation
import Logging
import SwitchboardCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Persists ``AdminState`` in `data_dir`, durably and atomically, at a cost in proportion to
/// each change rather than to the state:
///
/// - `state.log` is an append-only change log: one ``StoredRecord`` per acknowledged change
///   (an ``AdminChangeRecord``), fsync'd before the change is acknowledged;
/// - `state.json` is the whole state at some version, a snapshot (``AdminStateSnapshot``),
///   rewritten once the log has grown as large as it (temp file, fsync, rename, fsync the
///   directory), after which the log is emptied. Earlier versions wrote it as one JSON
///   document, without a log: such a file is read as it is, and replaced by a snapshot at the
///   first write.
///
/// The state is the snapshot plus the log's records after its version. A crash at any instant
/// leaves the old or the new state: a record torn by a crash fails its length or checksum and
/// is dropped with everything after it (only the record of a write not yet acknowledged can be
/// torn, because each is fsync'd before the next is written), and the snapshot is replaced by
/// a rename. Records the snapshot already holds (a crash between its rename and the emptying of
/// the log) are skipped by version.
///
/// One process owns the directory, and the server serialises its writes, so the version check
/// happens in memory before ``commit(_:replacing:)`` is called.
package final class FileAdminStore: AdminStore {
    /// The directory holding the state.
    package let directory: String
    /// The state file's path: the snapshot (or the JSON document of earlier versions).
    package var path: String { directory + "/state.json" }
    /// The change log's path.
    package var logPath: String { directory + "/state.log" }

    /// The log may grow to the snapshot's size, and at least to this, before it is compacted.
    static let smallestCompactedLog = 64 * 1024

    /// What is on disk, as this process last read or wrote it.
    private struct OnDisk {
        var state: AdminState
        var snapshotBytes: Int?
        var logEnd: Int
        var logExists: Bool
    }

    private struct Tracking {
        var onDisk: OnDisk?
        var removedLeftovers = false
    }

    private let tracking = Mutex(Tracking())

    package init(directory: String) {
        self.directory = directory
    }

    package var location: String { "file \(path)" }

    package var isShared: Bool { false }

    package func followChanges(logger: Logger, shouldStop: () -> Bool, onChange: () -> Bool) {}

    /// Why the state could not be read or written.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package let message: String
        package var description: String { message }
    }

    /// Loads the state (an absent directory or no files is the empty state), after removing
    /// the temporary files of writes a crash interrupted (``CrashLeftovers``).
    ///
    /// - Throws: ``AdminStoreError`` (`failed`) when a file exists but cannot be read or
    ///   decoded. A corrupt file is never silently discarded: fix or move it away, then start
    ///   again.
    package func load() throws(AdminStoreError) -> AdminState {
        do throws(Failure) {
            return try tracking.withLock { (tracking) throws(Failure) -> AdminState in
                removeLeftoversOnce(&tracking)
                let onDisk = try read()
                tracking.onDisk = onDisk
                return onDisk.state
            }
        } catch {
            throw AdminStoreError(.failed, error.message)
        }
    }

    package func commit(_ state: AdminState, replacing expectedVersion: Int) throws(AdminStoreError) {
        do throws(Failure) {
            try tracking.withLock { (tracking) throws(Failure) in
                removeLeftoversOnce(&tracking)
                let onDisk: OnDisk
                if let known = tracking.onDisk { onDisk = known } else { onDisk = try read() }
                // Until this write succeeds, what is on disk is not known for sure.
                tracking.onDisk = nil
                tracking.onDisk = try write(state, over: onDisk)
            }
        } catch {
            throw AdminStoreError(.failed, error.message)
        }
    }

    /// Writes `state` as a whole new snapshot; returns once it is on disk.
    package func save(_ state: AdminState) throws(Failure) {
        try tracking.withLock { (tracking) throws(Failure) in
            removeLeftoversOnce(&tracking)
            tracking.onDisk = nil
            tracking.onDisk = try writeSnapshot(state)
        }
    }

    // MARK: - Reading

    private func removeLeftoversOnce(_ tracking: inout Tracking) {
        guard !tracking.removedLeftovers else { return }
        tracking.removedLeftovers = true
        CrashLeftovers.remove(in: directory)
    }

    /// Reads the snapshot (or the JSON document of earlier versions), then the log's records
    /// after its version.
    private func read() throws(Failure) -> OnDisk {
        var onDisk = OnDisk(state: AdminState(), snapshotBytes: nil, logEnd: 0, logExists: false)
        if let file = try DurableFile.contents(of: path) {
            if AdminStateSnapshot.looksLikeSnapshot(file) {
                let state = try file.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Result<AdminState, Failure> in
                    do throws(AdminStateSnapshot.Failure) {
                        return .success(try AdminStateSnapshot.state(from: bytes))
                    } catch {
                        return .failure(Self.corrupt(path, error.description))
                    }
                }.get()
                onDisk.state = state
                onDisk.snapshotBytes = file.count
            } else {
                do {
                    onDisk.state = try AdminState(document: String(decoding: file, as: UTF8.self))
                } catch {
                    throw Self.corrupt(path, DecodingErrorDescription.describe(error))
                }
            }
        }
        guard let log = try DurableFile.contents(of: logPath) else { return onDisk }
        onDisk.logExists = true
        onDisk = try log.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in replay(bytes, onto: onDisk) }.get()
        return onDisk
    }

    /// `onDisk` with the log's records after its version applied, and where the log's whole
    /// records end.
    private func replay(_ bytes: UnsafeRawBufferPointer, onto onDisk: OnDisk) -> Result<OnDisk, Failure> {
        var onDisk = onDisk
        let (payloads, end) = StoredRecord.scan(bytes)
        for payload in payloads {
            let record: AdminChangeRecord
            do {
                record = try AdminChangeRecord(payload: UnsafeRawBufferPointer(rebasing: bytes[payload]))
            } catch {
                return .failure(
                    Self.corrupt(logPath, "the record at byte \(payload.lowerBound): \(DecodingErrorDescription.describe(error))"))
            }
            if record.version <= onDisk.state.version { continue }
            guard let next = onDisk.state.applying(record) else {
                return .failure(
                    Self.corrupt(logPath, "the record of version \(record.version) does not follow version \(onDisk.state.version)"))
            }
            onDisk.state = next
        }
        // Whatever follows the last whole record is the torn tail of a write a crash
        // interrupted, never acknowledged: dropped here, cut off at the next append. Unless a
        // whole record of a later version follows it: then a record in the middle was damaged,
        // and dropping the rest would lose acknowledged changes. (A whole record of an older
        // version can be a stale block of a log emptied by a snapshot; it holds nothing new.)
        for later in StoredRecord.wholeRecords(after: end, in: bytes) {
            guard let record = try? AdminChangeRecord(payload: UnsafeRawBufferPointer(rebasing: bytes[later])),
                record.version > onDisk.state.version
            else { continue }
            return .failure(
                Self.corrupt(
                    logPath,
                    "the record at byte \(end) is damaged, and a whole record of version \(record.version) follows it: "
                        + "the changes after version \(onDisk.state.version) cannot be read"))
        }
        onDisk.logEnd = end
        return .success(onDisk)
    }

    private static func corrupt(_ path: String, _ reason: String) -> Failure {
        Failure(
            message: "\(path) is corrupt (\(reason)); it was not modified. "
                + "Restore the data_dir from a backup or move it away to start with no admin state")
    }

    // MARK: - Writing

    /// Appends `state`'s change to the log when it is the change that follows what is on disk
    /// and the log is still small enough; else writes a whole snapshot.
    private func write(_ state: AdminState, over onDisk: OnDisk) throws(Failure) -> OnDisk {
        if let snapshotBytes = onDisk.snapshotBytes, let record = AdminChangeRecord(last: state),
            onDisk.state.applying(record) == state
        {
            let framed = StoredRecord.frame(record.payload)
            if onDisk.logEnd + framed.count <= max(snapshotBytes, Self.smallestCompactedLog) {
                try DurableFile.append(framed, to: logPath, at: onDisk.logEnd, creating: !onDisk.logExists, in: directory)
                var next = onDisk
                next.state = state
                next.logEnd += framed.count
                next.logExists = true
                return next
            }
        }
        return try writeSnapshot(state)
    }

    /// Replaces the snapshot with `state`, then empties the log.
    private func writeSnapshot(_ state: AdminState) throws(Failure) -> OnDisk {
        let bytes = AdminStateSnapshot.bytes(of: state)
        try DurableFile.createDirectory(directory)
        try DurableFile.replace(path, with: bytes, temporary: directory + "/.state.json.\(getpid()).tmp", in: directory)
        // Its records are all at or below the snapshot's version from now on: emptying it only
        // saves reading them again.
        let logExists = FileManager.default.fileExists(atPath: logPath)
        if logExists { try DurableFile.truncate(logPath) }
        return OnDisk(state: state, snapshotBytes: bytes.count, logEnd: 0, logExists: logExists)
    }
}
