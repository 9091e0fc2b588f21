import Dispatch
import SwitchboardCore
import Synchronization

/// The routes of one route file, handed from the thread that decodes the file to the thread
/// that registers them, in file order and in chunks, so that registering starts while the rest
/// of the file is still being read. The decoder calls ``send(_:)`` for each chunk
/// and ``finish(_:)`` once; the reader calls ``receive(_:)`` once.
///
/// `Item` is what each route is handed over as: its ``RouteDefinition`` (to keep the file), or
/// the ``Route`` made from it on the decoding thread (to register it at once).
final class RouteFeed<Item: Sendable>: Sendable {
    /// How a route file ended.
    struct Outcome: Sendable {
        /// The file's module; `nil` when the file is broken or absent.
        var module: String?
        /// How many routes were sent in all.
        var routeCount = 0
        /// What is wrong with the file.
        var issues: [ConfigIssue] = []
    }

    private enum Message: Sendable {
        case routes([Item])
        case end(Outcome)
    }

    private let messages = Mutex<[Message]>([])
    /// Signalled once for each message queued.
    private let queued = DispatchSemaphore(value: 0)
    /// Where received chunks are freed.
    private let releaser = DispatchQueue(label: "switchboard.route-feed")

    /// Queues a chunk of the file's routes.
    func send(_ routes: [Item]) {
        messages.withLock { $0.append(.routes(routes)) }
        queued.signal()
    }

    /// Ends the feed.
    func finish(_ outcome: Outcome) {
        messages.withLock { $0.append(.end(outcome)) }
        queued.signal()
    }

    /// Calls `body` with each chunk of routes as it arrives, in order, until the file is read;
    /// returns how it ended. Each chunk is freed afterwards on a thread of the feed's, so the
    /// receiving thread (a reload's critical path) spends no time tearing routes down.
    func receive(_ body: (_ routes: [Item]) -> Void) -> Outcome {
        while true {
            queued.wait()
            let message = messages.withLock { $0.removeFirst() }
            switch message {
            case .routes(let routes): body(routes)
            case .end(let outcome): return outcome
            }
            let received = PendingRelease(consume message)
            releaser.async { received.release() }
        }
    }
}
