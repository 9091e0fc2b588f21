import Foundation
import Logging
import ServiceLifecycle

/// Folds the analytics lanes every ``foldInterval``, flushes to the store every
/// `flush_seconds`, and drops buckets past the retention every hour, on a thread of its own
/// (a flush is an fsync or a PostgreSQL transaction). On a graceful shutdown it folds and
/// flushes once more, after the HTTP server has stopped (it starts before it in the group).
struct AnalyticsService: Service {
    /// How often the lanes are folded: short enough that a lane (``AnalyticsLane/capacity``)
    /// never fills on a busy worker thread.
    static let foldInterval: Duration = .milliseconds(50)
    /// How often buckets past the retention are dropped.
    static let pruneInterval: Duration = .seconds(3_600)

    let analytics: Analytics
    let logger: Logger

    func run() async {
        let analytics = analytics
        let logger = logger
        await DedicatedThread.run(named: "switchboard.analytics") { shouldStop in
            let clock = ContinuousClock()
            let flushInterval = Duration.seconds(analytics.settings.flushSeconds)
            var lastFlush = clock.now
            var lastPrune: ContinuousClock.Instant?
            var failing = false
            func flush() {
                do {
                    try analytics.flush()
                    if failing { logger.notice("analytics flushes succeed again", metadata: ["store": "\(analytics.location)"]) }
                    failing = false
                } catch {
                    if !failing {
                        logger.warning(
                            "analytics flush failed; it is written again at the next flush",
                            metadata: ["store": "\(analytics.location)", "error": "\(error)"])
                    }
                    failing = true
                }
            }
            while !shouldStop() {
                Thread.sleep(forTimeInterval: Self.seconds(Self.foldInterval))
                analytics.fold()
                if clock.now - lastFlush >= flushInterval {
                    lastFlush = clock.now
                    flush()
                }
                if lastPrune.map({ clock.now - $0 >= Self.pruneInterval }) ?? true {
                    lastPrune = clock.now
                    do {
                        try analytics.prune()
                    } catch {
                        logger.warning("analytics retention could not prune the store", metadata: ["error": "\(error)"])
                    }
                }
            }
            flush()
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
