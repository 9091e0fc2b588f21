import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// The temporary files a writer killed mid-write leaves in `data_dir`, and their removal.
///
/// A write goes to `.<name>.<pid>.tmp` before it is renamed over `<name>`; a `SIGKILL` between
/// the two leaves the temporary file (a whole copy of the state). At start they are removed,
/// safely:
///
/// - only files named exactly `.state.json.<pid>.tmp` (digits only), nothing else in the
///   directory;
/// - only when no process with that pid is alive: another process using the same `data_dir`
///   (a `switchboard resolve` next to a `serve`, or a second server by mistake) may be writing
///   its own right now. A pid reused by an unrelated process keeps a leftover until a later
///   start; that is harmless;
/// - or when the pid is this process's own: the removal runs before this process writes, so
///   such a file was left by an earlier process that had the same pid (in a container the
///   server is often pid 1 every time).
///
/// A writer in another pid namespace sharing the directory cannot be seen: its temporary file
/// may be removed mid-write, and that write then fails and is not acknowledged. Nothing
/// acknowledged is lost and the state is never torn.
package enum CrashLeftovers {
    /// The state files whose temporary copies are recognised.
    static let stateFileNames = ["state.json"]

    /// The pid in `name` when it is a temporary file of a state write (`.state.json.4242.tmp`).
    package static func writerPID(ofTemporaryFile name: String) -> pid_t? {
        for stateFile in stateFileNames {
            let prefix = "." + stateFile + "."
            guard name.hasPrefix(prefix), name.hasSuffix(".tmp") else { continue }
            let digits = name.dropFirst(prefix.count).dropLast(".tmp".count)
            guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                let pid = pid_t(digits), pid > 0
            else { return nil }
            return pid
        }
        return nil
    }

    /// Whether a process with `pid` exists (`kill(pid, 0)`; `EPERM` means it exists but
    /// belongs to someone else).
    static func isAlive(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// Removes the temporary files of dead writers from `directory`. Call it before this process
    /// writes to the directory.
    /// - Returns: the names removed.
    @discardableResult
    package static func remove(in directory: String, logger: Logger? = nil) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var removed: [String] = []
        for name in names.sorted() {
            guard let pid = writerPID(ofTemporaryFile: name), pid == getpid() || !isAlive(pid) else { continue }
            if unlink(directory + "/" + name) == 0 {
                removed.append(name)
            } else {
                logger?.warning(
                    "cannot remove a temporary file a crashed write left",
                    metadata: ["file": "\(directory)/\(name)", "error": "\(String(cString: strerror(errno)))"])
            }
        }
        if !removed.isEmpty {
            logger?.notice("removed temporary files that crashed writes left", metadata: ["files": "\(removed)"])
        }
        return removed
    }
}
