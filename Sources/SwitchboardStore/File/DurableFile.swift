import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The file operations the file store is built from, each durable when it returns: what it
/// wrote is fsync'd, and so is the directory when an entry in it was created, renamed or
/// removed.
enum DurableFile {
    typealias Failure = FileAdminStore.Failure

    /// The content of `path`, or `nil` when it does not exist.
    static func contents(of path: String) throws(Failure) -> [UInt8]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw Failure(message: "cannot read \(path): \(error.localizedDescription)")
        }
    }

    static func createDirectory(_ directory: String) throws(Failure) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw Failure(message: "cannot create data_dir \(directory): \(error.localizedDescription)")
        }
    }

    /// Replaces `path` with `bytes` atomically: written to `temporary`, fsync'd, renamed over
    /// `path`, then the directory fsync'd.
    static func replace(_ path: String, with bytes: [UInt8], temporary: String, in directory: String) throws(Failure) {
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("cannot create \(temporary)") }
        do throws(Failure) {
            defer { close(descriptor) }
            try write(bytes, to: descriptor, at: 0, path: temporary)
            guard fsync(descriptor) == 0 else { throw failure("cannot fsync \(temporary)") }
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = failure("cannot rename \(temporary) to \(path)")
            unlink(temporary)
            throw error
        }
        try syncDirectory(directory)
    }

    /// Writes `bytes` at `offset` of `path` (cutting off whatever follows `offset` first) and
    /// fsyncs it; with `creating`, creates the file and fsyncs the directory too.
    static func append(_ bytes: [UInt8], to path: String, at offset: Int, creating: Bool, in directory: String) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("cannot open \(path)") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure("cannot stat \(path)") }
        if Int(status.st_size) != offset {
            guard ftruncate(descriptor, off_t(offset)) == 0 else { throw failure("cannot truncate \(path)") }
        }
        do throws(Failure) {
            try write(bytes, to: descriptor, at: offset, path: path)
            guard fdatasync(descriptor) == 0 else { throw failure("cannot fsync \(path)") }
        } catch {
            // Best effort: the caller reads the file again before its next write anyway.
            _ = ftruncate(descriptor, off_t(offset))
            throw error
        }
        if creating { try syncDirectory(directory) }
    }

    /// Empties `path` and fsyncs it.
    static func truncate(_ path: String) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("cannot open \(path)") }
        defer { close(descriptor) }
        guard ftruncate(descriptor, 0) == 0, fsync(descriptor) == 0 else { throw failure("cannot empty \(path)") }
    }

    /// Removes `path` and fsyncs the directory.
    static func remove(_ path: String, in directory: String) throws(Failure) {
        guard unlink(path) == 0 || errno == ENOENT else { throw failure("cannot remove \(path)") }
        try syncDirectory(directory)
    }

    private static func write(_ bytes: [UInt8], to descriptor: Int32, at offset: Int, path: String) throws(Failure) {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                buffer.baseAddress.map { pwrite(descriptor, $0 + written, buffer.count - written, off_t(offset + written)) } ?? -1
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw failure("cannot write \(path)")
            }
            written += result
        }
    }

    private static func syncDirectory(_ directory: String) throws(Failure) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("cannot open \(directory) to fsync it") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure("cannot fsync \(directory)") }
    }

    /// A failure naming what failed and `errno`'s reason.
    private static func failure(_ what: String) -> Failure {
        Failure(message: "\(what): \(String(cString: strerror(errno)))")
    }
}
