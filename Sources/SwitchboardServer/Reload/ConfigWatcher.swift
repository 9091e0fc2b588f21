import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Watches a config directory and calls `onChange` once the files have changed and then
/// stayed quiet for a moment.
///
/// inotify (on the directory and `routes.d/`) wakes it at once; a fingerprint of every file's
/// size, mtime and inode, checked at least every `pollInterval`, decides whether anything
/// really changed. The fingerprint alone is the fallback where inotify is unavailable, and it
/// also catches what inotify misses (Kubernetes ConfigMaps swap a symlinked directory).
package final class ConfigWatcher: Sendable {
    private let directory: String
    private let pollInterval: Duration
    private let quietPeriod: Duration
    private let logger: Logger
    private let onChange: @Sendable () -> Void
    private let running = Atomic<Bool>(false)

    package init(
        directory: String, pollInterval: Duration = .seconds(1), quietPeriod: Duration = .milliseconds(150),
        logger: Logger, onChange: @escaping @Sendable () -> Void
    ) {
        self.directory = directory
        self.pollInterval = pollInterval
        self.quietPeriod = quietPeriod
        self.logger = logger
        self.onChange = onChange
    }

    /// Starts the watch thread (idempotent).
    package func start() {
        guard running.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            return
        }
        // Arm inotify and take the baseline here, not on the new thread: a change made as soon
        // as start() has returned (e.g. right after the service logged that it is listening)
        // must not be folded into the baseline and missed.
        let inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        var watchedRoutesDirectory = false
        if inotify >= 0 {
            addWatch(inotify, directory)
            watchedRoutesDirectory = addWatch(inotify, directory + "/routes.d")
        }
        let baseline = fingerprint()
        let thread = Thread { [self, watchedRoutesDirectory] in
            self.run(inotify: inotify, watchedRoutesDirectory: watchedRoutesDirectory, baseline: baseline)
        }
        thread.name = "switchboard.config-watcher"
        thread.start()
    }

    /// Stops the watch thread within one poll interval.
    package func stop() {
        running.store(false, ordering: .releasing)
    }

    private func run(inotify: Int32, watchedRoutesDirectory: Bool, baseline: [String: [Int]]) {
        if inotify < 0 {
            logger.notice("inotify unavailable; polling the config directory", metadata: ["interval": "\(pollInterval)"])
        }
        defer { if inotify >= 0 { close(inotify) } }
        var watchedRoutesDirectory = watchedRoutesDirectory
        var last = baseline
        while running.load(ordering: .acquiring) {
            wait(inotify)
            guard running.load(ordering: .acquiring) else { break }
            if inotify >= 0 && !watchedRoutesDirectory {
                watchedRoutesDirectory = addWatch(inotify, directory + "/routes.d")
            }
            var now = fingerprint()
            guard now != last else { continue }
            // Let a burst of writes (an editor, a ConfigMap update) settle before reloading.
            while true {
                Thread.sleep(forTimeInterval: Self.seconds(quietPeriod))
                let settled = fingerprint()
                if settled == now { break }
                now = settled
            }
            last = now
            logger.info("config directory changed; reloading")
            onChange()
        }
    }

    @discardableResult
    private func addWatch(_ inotify: Int32, _ path: String) -> Bool {
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB | IN_MODIFY)
        return inotify_add_watch(inotify, path, mask) >= 0
    }

    /// Sleeps until an inotify event or the poll interval; drains pending events.
    private func wait(_ inotify: Int32) {
        let milliseconds = Int32(Self.seconds(pollInterval) * 1000)
        guard inotify >= 0 else {
            Thread.sleep(forTimeInterval: Self.seconds(pollInterval))
            return
        }
        var descriptor = pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)
        if poll(&descriptor, 1, milliseconds) > 0 {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while read(inotify, &buffer, buffer.count) > 0 {}
        }
    }

    /// Size, modification time and inode of every config file, following symlinks.
    private func fingerprint() -> [String: [Int]] {
        var result: [String: [Int]] = [:]
        var paths = ["switchboard.yaml", "rewrites.yaml"].map { directory + "/" + $0 }
        let routes = directory + "/routes.d"
        if let names = try? FileManager.default.contentsOfDirectory(atPath: routes) {
            paths += names.map { routes + "/" + $0 }
        }
        for path in paths {
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            result[path] = [
                Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec), Int(info.st_ino),
            ]
        }
        return result
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
