import Foundation
import Logging
import ServiceLifecycle
import SwitchboardHTTP
import SwitchboardStore

/// Probes a shared admin store (PostgreSQL) every few seconds, for the `switchboard_store_*`
/// series: whether it answers, how fast, and when it last did. Logs when it stops and starts
/// answering again.
///
/// A probe is a `load()` of the admin state, the same read a replica does when it follows the
/// store, so it costs one query of one row. Store reachability is reported, not made part of
/// readiness: resolving never needs the store, and a database outage must not take every
/// replica out of the load balancer at once (docs/replicas-and-state.md "Many replicas").
package final class StoreProbe: Service, Sendable {
    private let store: any AdminStore
    private let metrics: Metrics
    private let executor: BlockingExecutor
    private let interval: Duration
    private let logger: Logger

    /// - Parameters:
    ///   - store: the shared store.
    ///   - executor: where the blocking query runs (off the cooperative pool).
    ///   - interval: the time between probes.
    package init(
        store: any AdminStore, metrics: Metrics, executor: BlockingExecutor, interval: Duration = .seconds(10),
        logger: Logger
    ) {
        self.store = store
        self.metrics = metrics
        self.executor = executor
        self.interval = interval
        self.logger = logger
    }

    /// Probes until the service group shuts down.
    package func run() async {
        let kind = store.location.hasPrefix("postgres") ? "postgres" : "shared"
        var lastReachable = 0.0
        var wasReachable = true
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            // A blocking query: off the cooperative pool, timed from when it starts to run.
            let probe: (reachable: Bool, elapsed: Duration)
            do throws(BlockingExecutor.Refusal) {
                probe = try await executor.perform { [store] in
                    let started = ContinuousClock.now
                    let reachable = (try? store.load()) != nil
                    return (reachable, ContinuousClock.now - started)
                }
            } catch {
                // Shutting down: nothing more to report. Full: writes are waiting on the store
                // already; the next turn probes again.
                if error == .shutDown { return }
                try? await cancelWhenGracefulShutdown { try await Task.sleep(for: self.interval) }
                continue
            }
            let (reachable, elapsed) = probe
            if reachable { lastReachable = Date().timeIntervalSince1970 }
            metrics.recordStoreProbe(
                Metrics.StoreProbe(
                    kind: kind, reachable: reachable,
                    seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                    lastReachable: lastReachable))
            if reachable != wasReachable {
                if reachable {
                    logger.notice("the admin store answers again", metadata: ["store": "\(store.location)"])
                } else {
                    logger.warning("the admin store does not answer", metadata: ["store": "\(store.location)"])
                }
                wasReachable = reachable
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: self.interval) }
        }
    }
}
