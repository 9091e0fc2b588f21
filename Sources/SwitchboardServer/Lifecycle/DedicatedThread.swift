import Foundation
import ServiceLifecycle
import Synchronization

/// Runs a blocking loop (one that waits on inotify or on a PostgreSQL socket) as the body of
/// a `Service`: on a thread of its own, off Swift's cooperative pool, until the service group
/// shuts down gracefully or the task is cancelled; then it asks the loop to stop and waits
/// for it to return.
///
/// ```swift
/// func run() async {
///     await DedicatedThread.run(named: "switchboard.config-watcher") { shouldStop in
///         while !shouldStop() { … }
///     }
/// }
/// ```
enum DedicatedThread {
    /// Whether the loop has been asked to stop.
    private final class StopRequest: Sendable {
        private let requested = Atomic<Bool>(false)
        var isRequested: Bool { requested.load(ordering: .acquiring) }
        func request() { requested.store(true, ordering: .releasing) }
    }

    /// Runs `loop` on a new thread and returns once it has returned.
    ///
    /// - Parameters:
    ///   - name: the thread's name (seen in debuggers and `top -H`).
    ///   - loop: the blocking work; it must poll `shouldStop` often (a stop waits for it).
    static func run(named name: String, _ loop: @escaping @Sendable (_ shouldStop: () -> Bool) -> Void) async {
        let stop = StopRequest()
        let (ended, finish) = AsyncStream<Never>.makeStream()
        let thread = Thread {
            loop { stop.isRequested }
            finish.finish()
        }
        thread.name = name
        thread.start()
        await withTaskCancellationOrGracefulShutdownHandler {
            for await _ in ended {}
        } onCancelOrGracefulShutdown: {
            stop.request()
        }
    }
}
