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

    /// `LISTEN`s for the notification every commit sends, on a connection of its own, and
    /// calls `onChange` for each. It also calls it every few seconds, and after every
    /// (re)connect, because notifications sent while disconnected are lost. A lost connection
    /// is retried with exponential backoff (100 ms doubling to 2 s).
    package func followChanges(logger: Logger, shouldStop: () -> Bool, onChange: () -> Void) {
        var connection: PostgresConnection?
        var backoff = Duration.milliseconds(100)
        var wasDisconnected = false
        var lastCheck = ContinuousClock.now
        while !shouldStop() {
            guard let live = connection else {
                do {
                    let fresh = try PostgresConnection(url)
                    try fresh.execute("LISTEN \(Self.channel)")
                    connection = fresh
                    if wasDisconnected { logger.notice("reconnected to the PostgreSQL store; resynchronising") }
                    backoff = .milliseconds(100)
                    wasDisconnected = false
                    lastCheck = .now
                    onChange()
                } catch {
                    if !wasDisconnected {
                        logger.warning(
                            "the PostgreSQL store is unreachable; serving the last snapshot", metadata: ["error": "\(error)"])
                    }
                    wasDisconnected = true
                    Self.sleep(for: backoff, unless: shouldStop)
                    backoff = min(backoff * 2, .seconds(2))
                }
                continue
            }
            do {
                let payloads = try live.notifications(waitingUpTo: .milliseconds(250))
                if !payloads.isEmpty || ContinuousClock.now - lastCheck >= Self.safetyInterval {
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
