import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Keeps a replica in step with the shared PostgreSQL store: `LISTEN`s for the notification
/// every commit sends and calls `onChange` (which reloads the state if it is newer). It also
/// calls it every `safetyInterval`, and after every (re)connect, because notifications sent
/// while a replica was disconnected are lost. A lost connection is retried with exponential
/// backoff (100 ms doubling to 2 s); meanwhile the replica keeps serving its last snapshot.
package final class PostgresStateListener: Sendable {
    private let url: String
    private let logger: Logger
    private let safetyInterval: Duration
    private let onChange: @Sendable () -> Void
    private let running = Atomic<Bool>(false)

    package init(
        url: String, logger: Logger, safetyInterval: Duration = .seconds(5), onChange: @escaping @Sendable () -> Void
    ) {
        self.url = url
        self.logger = logger
        self.safetyInterval = safetyInterval
        self.onChange = onChange
    }

    /// Starts the listening thread (idempotent).
    package func start() {
        guard running.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        let thread = Thread { [self] in self.run() }
        thread.name = "switchboard.store-listener"
        thread.start()
    }

    /// Stops the thread within a second.
    package func stop() {
        running.store(false, ordering: .releasing)
    }

    private func run() {
        var connection: PostgresConnection?
        var backoff = Duration.milliseconds(100)
        var wasDisconnected = false
        var lastCheck = ContinuousClock.now
        while running.load(ordering: .acquiring) {
            guard let live = connection else {
                do {
                    let fresh = try PostgresConnection(url)
                    try fresh.execute("LISTEN \(PostgresAdminStore.channel)")
                    connection = fresh
                    if wasDisconnected { logger.notice("reconnected to the PostgreSQL store; resynchronising") }
                    backoff = .milliseconds(100)
                    wasDisconnected = false
                    lastCheck = .now
                    onChange()  // notifications sent while disconnected are lost
                } catch {
                    if !wasDisconnected {
                        logger.warning("the PostgreSQL store is unreachable; serving the last snapshot", metadata: ["error": "\(error)"])
                    }
                    wasDisconnected = true
                    sleep(for: backoff)
                    backoff = min(backoff * 2, .seconds(2))
                }
                continue
            }
            do {
                let payloads = try live.notifications(waitingUpTo: .milliseconds(250))
                if !payloads.isEmpty || ContinuousClock.now - lastCheck >= safetyInterval {
                    lastCheck = .now
                    onChange()
                }
            } catch {
                logger.warning("lost the PostgreSQL store's connection; reconnecting", metadata: ["error": "\(error)"])
                connection = nil
                wasDisconnected = true
            }
        }
    }

    private func sleep(for duration: Duration) {
        var remaining = duration
        // Sleep in slices so stop() is honoured quickly.
        while remaining > .zero, running.load(ordering: .acquiring) {
            let slice = min(remaining, .milliseconds(100))
            usleep(UInt32(slice.components.attoseconds / 1_000_000_000_000))
            remaining -= slice
        }
    }
}
