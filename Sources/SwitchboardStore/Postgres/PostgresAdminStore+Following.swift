import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension PostgresAdminStore {
    package var isShared: Bool { true }

    /// How often the state is checked even without a notification, in case one was lost.
    private static let safetyInterval = Duration.seconds(5)

    /// The first wait before trying to reconnect or resynchronise again, doubled after each
    /// failure up to ``longestRetry``: a replica converges within about half a second of the
    /// database accepting connections again.
    static let firstRetry = Duration.milliseconds(50)
    /// The longest wait between two attempts.
    static let longestRetry = Duration.milliseconds(500)

    /// `LISTEN`s for the notification every commit sends, on a connection of its own, and
    /// calls `onChange` for each. It also calls it every few seconds, and after every
    /// (re)connect, because notifications sent while disconnected are lost. A lost connection
    /// is retried, and so is an `onChange` that could not catch up (the store's own connection
    /// may still be the one the restarted server dropped), each with a backoff of 50 ms
    /// doubling to 500 ms, until it succeeds.
    package func followChanges(logger: Logger, shouldStop: () -> Bool, onChange: () -> Bool) {
        var connection: PostgresConnection?
        var backoff = Self.firstRetry
        var wasDisconnected = false
        var lastCheck = ContinuousClock.now
        /// When the last `onChange` failed: when to call it again, and the wait after that.
        var resync: (due: ContinuousClock.Instant, backoff: Duration)?

        /// Calls `onChange`; schedules it again after a backoff when it could not catch up.
        func catchUp() {
            lastCheck = .now
            if onChange() {
                resync = nil
            } else {
                let wait = resync?.backoff ?? Self.firstRetry
                resync = (.now + wait, min(wait * 2, Self.longestRetry))
            }
        }

        while !shouldStop() {
            guard let live = connection else {
                do {
                    let fresh = try PostgresConnection(url, notices: PostgresNoticeSink(logger: logger))
                    try fresh.execute("LISTEN \(Self.channel)")
                    connection = fresh
                    if wasDisconnected { logger.notice("reconnected to the PostgreSQL store; resynchronising") }
                    backoff = Self.firstRetry
                    wasDisconnected = false
                    catchUp()
                } catch {
                    if !wasDisconnected {
                        logger.warning(
                            "the PostgreSQL store is unreachable; serving the last snapshot", metadata: ["error": "\(error)"])
                    }
                    wasDisconnected = true
                    Self.sleep(for: backoff, unless: shouldStop)
                    backoff = min(backoff * 2, Self.longestRetry)
                }
                continue
            }
            do {
                var wait = Duration.milliseconds(250)
                if let due = resync?.due { wait = max(.zero, min(wait, due - .now)) }
                let payloads = try live.notifications(waitingUpTo: wait)
                let resyncDue = resync.map { ContinuousClock.now >= $0.due } ?? false
                if !payloads.isEmpty || resyncDue || ContinuousClock.now - lastCheck >= Self.safetyInterval {
                    catchUp()
                }
            } catch {
                logger.warning("lost the PostgreSQL store's connection; reconnecting", metadata: ["error": "\(error)"])
                connection = nil
                wasDisconnected = true
            }
        }
    }

    /// Sleeps in slices of at most 100 ms, so that a stop is honoured quickly.
    private static func sleep(for duration: Duration, unless shouldStop: () -> Bool) {
        var remaining = duration
        while remaining > .zero, !shouldStop() {
            let slice = min(remaining, .milliseconds(100))
            usleep(UInt32(slice.components.attoseconds / 1_000_000_000_000))
            remaining -= slice
        }
    }
}
