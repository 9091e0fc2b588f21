import Foundation
import Logging
import SwitchboardCore

#if canImport(Glibc)
    import Glibc
#endif

/// Persists ``AdminState`` in `data_dir/state.json`, durably and atomically: write a temp
/// file, fsync it, rename it over the old one, fsync the directory. A crash at any instant
/// leaves either the old or the new file, never a torn one.
///
/// One process owns the file, and the server serialises its writes, so the version check
/// happens in memory before ``commit(_:replacing:)`` is called.
package struct FileAdminStore: AdminStore {
    /// The directory holding the state.
    package let directory: String
    /// The state file's path.
    package var path: String { directory + "/state.json" }

    package init(directory: String) {
        self.directory = directory
    }

    package var location: String { "file \(path)" }

    package var isShared: Bool { false }

    package func followChanges(logger: Logger, shouldStop: () -> Bool, onChange: () -> Bool) {}

    /// Loads the state, after removing the temporary files of writes a crash interrupted
    /// (``CrashLeftovers``).
    package func load() throws(AdminStoreError) -> AdminState {
        CrashLeftovers.remove(in: directory)
        do {
            return try loadFile()
        } catch {
            throw AdminStoreError(.failed, error.message)
        }
    }

    package func commit(_ state: AdminState, replacing expectedVersion: Int) throws(AdminStoreError) {
        do {
            try save(state)
        } catch {
            throw AdminStoreError(.failed, error.message)
        }
    }

    /// Why the state could not be read or written.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package let message: String
        package var description: String { message }
    }

    /// Loads the state; an absent file is the empty state.
    /// - Throws: ``Failure`` when the file exists but cannot be read or decoded. A corrupt
    ///   file is never silently discarded: fix or move it away, then start again.
    package func loadFile() throws(Failure) -> AdminState {
        guard FileManager.default.fileExists(atPath: path) else { return AdminState() }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw Failure(message: "cannot read \(path): \(error.localizedDescription)")
        }
        do {
            return try AdminState(document: String(decoding: data, as: UTF8.self))
        } catch {
            throw Failure(
                message: "\(path) is corrupt (\(DecodingErrorDescription.describe(error))); "
                    + "it was not modified. Restore it from a backup or move it away to start with no admin state")
        }
    }

    /// Writes `state` durably; returns only once it is on disk.
    package func save(_ state: AdminState) throws(Failure) {
        // Written by hand rather than with JSONEncoder, which loses (or sorts) the key order
        // of route targets.
        let data = Data(state.fileText.utf8)
        try createDirectory()
        let temporary = directory + "/.state.json.\(getpid()).tmp"
        try writeSynced(data, to: temporary)
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Failure(message: "cannot rename \(temporary) to \(path): \(reason)")
        }
        try syncDirectory()
    }

    private func createDirectory() throws(Failure) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw Failure(message: "cannot create data_dir \(directory): \(error.localizedDescription)")
        }
    }

    private func writeSynced(_ data: Data, to file: String) throws(Failure) {
        let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw Failure(message: "cannot create \(file): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var failure: String?
        data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                offset += written
            }
        }
        if let failure {
            unlink(file)
            throw Failure(message: "cannot write \(file): \(failure)")
        }
        guard fsync(descriptor) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(file)
            throw Failure(message: "cannot fsync \(file): \(reason)")
        }
    }

    private func syncDirectory() throws(Failure) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw Failure(message: "cannot open \(directory) to fsync it: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw Failure(message: "cannot fsync \(directory): \(String(cString: strerror(errno)))")
        }
    }
}
