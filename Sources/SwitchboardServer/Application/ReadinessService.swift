import Logging
import ServiceLifecycle

/// Says when the server should be sent traffic: ready once every service runs, not ready from
/// the moment a graceful shutdown begins, and then a drain period before it lets the
/// shutdown go on.
///
/// It is the last service of the group, so it starts after the others and is the first to
/// hear of a graceful shutdown (the group tells services in reverse order, each after the one
/// before has returned). Returning only after the drain period keeps the HTTP server serving
/// while load balancers notice `/readyz` failing and take the endpoint out (Kubernetes removes
/// it only seconds after `SIGTERM`); then the server stops accepting and finishes what is in
/// flight within its own grace period.
package final class ReadinessService: Service, Sendable {
    private let readiness: Readiness
    private let drainPeriod: Duration
    private let logger: Logger
    private let announce: @Sendable () -> Void

    /// - Parameters:
    ///   - readiness: the state it sets (what `/readyz` reads).
    ///   - drainPeriod: how long to keep serving, not ready, once a graceful shutdown begins.
    ///   - announce: called once the server is ready (it logs that it is listening).
    package init(
        readiness: Readiness, drainPeriod: Duration, logger: Logger, announce: @escaping @Sendable () -> Void
    ) {
        self.readiness = readiness
        self.drainPeriod = drainPeriod
        self.logger = logger
        self.announce = announce
    }

    /// Whether the server is ready for traffic now.
    package var isReady: Bool { readiness.isReady }

    /// Ready until the service group shuts down gracefully; then not ready for the drain
    /// period (cut short if the task is cancelled).
    package func run() async {
        readiness.enter(.ready)
        announce()
        try? await gracefulShutdown()
        readiness.enter(.draining)
        guard drainPeriod > .zero else { return }
        logger.notice(
            "draining: not ready, still serving until the drain period ends",
            metadata: ["drain_seconds": "\(drainPeriod.components.seconds)"])
        try? await Task.sleep(for: drainPeriod)
    }
}
