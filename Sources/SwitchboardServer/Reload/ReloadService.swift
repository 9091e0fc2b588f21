import Dispatch
import Logging
import ServiceLifecycle
import UnixSignals

/// Takes reload requests from the config watcher and `SIGHUP`, and runs them one after the
/// other on a thread of its own (a reload of a large config takes a while, and must not hold
/// one of Swift's cooperative threads).
///
/// Requests that arrive while a reload runs are folded into one more reload: the files are
/// read when the reload starts, so one reload after the last request sees every change.
/// `POST /admin/reload` calls ``Reloader/reload(_:)`` directly, because it answers with the
/// outcome; all three end in the same pipeline.
package final class ReloadService: Service, Sendable {
    private let reloader: Reloader
    private let hangups: UnixSignalsSequence?
    private let requests: AsyncStream<ReloadTrigger>
    private let continuation: AsyncStream<ReloadTrigger>.Continuation
    private let queue = DispatchQueue(label: "switchboard.reload")
    private let logger: Logger

    /// - Parameters:
    ///   - reloader: the pipeline every request runs.
    ///   - hangups: `SIGHUP`, trapped; `nil` when the process's signals are someone else's (a
    ///     test running several servers).
    ///   - logger: receives a notice for each `SIGHUP`.
    package init(reloader: Reloader, hangups: UnixSignalsSequence?, logger: Logger) {
        self.reloader = reloader
        self.logger = logger
        self.hangups = hangups
        (requests, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Asks for a reload; returns at once.
    package func request(_ trigger: ReloadTrigger) {
        continuation.yield(trigger)
    }

    /// Runs the requested reloads until the service group shuts down.
    package func run() async {
        await withDiscardingTaskGroup { group in
            if let hangups {
                group.addTask {
                    for await _ in hangups.cancelOnGracefulShutdown() {
                        self.logger.notice("received SIGHUP")
                        self.request(.signal)
                    }
                }
            }
            for await trigger in requests.cancelOnGracefulShutdown() {
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    queue.async {
                        self.reloader.reload(trigger)
                        done.resume()
                    }
                }
            }
            group.cancelAll()
        }
    }
}
