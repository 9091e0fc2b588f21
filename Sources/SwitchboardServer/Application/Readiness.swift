import Synchronization

/// Whether this server should be sent traffic, as `GET /readyz` answers it: what
/// ``ReadinessService`` sets and the endpoints read (lock-free).
///
/// Ready means the config and the admin state are loaded and every service runs (the
/// application is not built otherwise), and no graceful shutdown has begun.
package final class Readiness: Sendable {
    /// Where the server is in its life.
    package enum Phase: UInt8, Sendable {
        /// The services are starting.
        case starting
        /// Every service runs.
        case ready
        /// A graceful shutdown began: still answering, no longer ready.
        case draining
    }

    private let phase = Atomic<UInt8>(Phase.starting.rawValue)

    package init() {}

    /// The phase now.
    package var current: Phase { Phase(rawValue: phase.load(ordering: .acquiring)) ?? .starting }

    /// Whether the server is ready for traffic now.
    package var isReady: Bool { current == .ready }

    /// Moves to `next`.
    package func enter(_ next: Phase) {
        phase.store(next.rawValue, ordering: .releasing)
    }
}
