import Foundation
import Logging
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Watches a config directory and calls `onChange` once the files have changed and then
/// stayed quiet for a moment: a `Service` whose loop runs on a thread of its own.
///
/// inotify (Linux: on the directory and `routes.d/`) wakes it at once; a fingerprint of every
/// file's size, mtime and inode, checked at least every `pollInterval`, decides whether
/// anything really changed. The fingerprint alone is the fallback where inotify is
/// unavailable (and on other systems), and it also catches what inotify misses (Kubernetes
/// ConfigMaps swap a symlinked directory).
///
/// Files outside the directory that a reload reads too (the TLS certificates) are in the
/// fingerprint as well: a renewal written in place is reloaded like a config edit.
///
/// The watch is armed and the baseline taken in `init`, not when the service starts: a
/// change made as soon as the server says it is listening is never folded into the baseline.
package final class ConfigWatcher: Service, Sendable {
    private let directory: String
    /// Files outside the directory whose change also asks for a reload.
    private let otherFiles: [String]
    private let pollInterval: Duration
    private let quietPeriod: Duration
    private let logger: Logger
    private let onChange: @Sendable () -> Void
    /// The inotify descriptor, or -1 where inotify is unavailable.
    private let inotify: Int32
    private let baseline: [String: [Int]]
    /// Whether `routes.d/` is watched (it may appear after the start).
    private let watchesRoutesDirectory: Atomic<Bool>

    /// - Parameter otherFiles: files outside the directory that a reload reads too (checked
    ///   every `pollInterval`, not by inotify).
    package init(
        directory: String, otherFiles: [String] = [], pollInterval: Duration = .seconds(1),
        quietPeriod: Duration = .milliseconds(150), logger: Logger, onChange: @escaping @Sendable () -> Void
    ) {
        self.directory = directory
        self.otherFiles = otherFiles
        self.pollInterval = pollInterval
        self.quietPeriod = quietPeriod
        self.logger = logger
        self.onChange = onChange
        #if os(Linux)
            let inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        #else
            let inotify: Int32 = -1
        #endif
        self.inotify = inotify
        if inotify >= 0 {
            Self.addWatch(inotify, directory)
        }
        watchesRoutesDirectory = Atomic(inotify >= 0 && Self.addWatch(inotify, directory + "/routes.d"))
        baseline = Self.fingerprint(of: directory, otherFiles: otherFiles)
    }

    deinit {
        if inotify >= 0 { close(inotify) }
    }

    /// Watches until the service group shuts down.
    package func run() async {
        await DedicatedThread.run(named: "switchboard.config-watcher") { [self] shouldStop in
            watch(until: shouldStop)
        }
    }

    private func watch(until shouldStop: () -> Bool) {
        if inotify < 0 {
            logger.notice("inotify unavailable; polling the config directory", metadata: ["interval": "\(pollInterval)"])
        }
        var last = baseline
        var lastCheck = ContinuousClock.now
        while !shouldStop() {
            let notified = wait()
            guard !shouldStop() else { break }
            guard notified || ContinuousClock.now - lastCheck >= pollInterval else { continue }
            lastCheck = .now
            if inotify >= 0, !watchesRoutesDirectory.load(ordering: .relaxed) {
                watchesRoutesDirectory.store(Self.addWatch(inotify, directory + "/routes.d"), ordering: .relaxed)
            }
            var now = Self.fingerprint(of: directory, otherFiles: otherFiles)
            guard now != last else { continue }
            // Let a burst of writes (an editor, a ConfigMap update) settle before reloading.
            while true {
                Thread.sleep(forTimeInterval: Self.seconds(quietPeriod))
                let settled = Self.fingerprint(of: directory, otherFiles: otherFiles)
                if settled == now { break }
                now = settled
            }
            last = now
            logger.info("config changed; reloading")
            onChange()
        }
    }

    @discardableResult
    private static func addWatch(_ inotify: Int32, _ path: String) -> Bool {
        #if os(Linux)
            let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB | IN_MODIFY)
            return inotify_add_watch(inotify, path, mask) >= 0
        #else
            return false
        #endif
    }

    /// Sleeps until an inotify event or for at most 250 ms (so that a stop is honoured
    /// quickly), and drains pending events.
    ///
    /// - Returns: whether inotify reported a change.
    private func wait() -> Bool {
        let slice = min(pollInterval, .milliseconds(250))
        guard inotify >= 0 else {
            Thread.sleep(forTimeInterval: Self.seconds(slice))
            return false
        }
        var descriptor = pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(Self.seconds(slice) * 1000)) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while read(inotify, &buffer, buffer.count) > 0 {}
        return true
    }

    /// Size, modification time and inode of every config file and of `otherFiles`, following
    /// symlinks.
    private static func fingerprint(of directory: String, otherFiles: [String]) -> [String: [Int]] {
        var result: [String: [Int]] = [:]
        var paths = ["switchboard.yaml", "rewrites.yaml"].map { directory + "/" + $0 } + otherFiles
        let routes = directory + "/routes.d"
        if let names = try? FileManager.default.contentsOfDirectory(atPath: routes) {
            paths += names.map { routes + "/" + $0 }
        }
        for path in paths {
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            #if os(Linux)
                let modified = info.st_mtim
            #else
                let modified = info.st_mtimespec
            #endif
            result[path] = [Int(info.st_size), Int(modified.tv_sec), Int(modified.tv_nsec), Int(info.st_ino)]
        }
        return result
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
