import Logging
import ServiceLifecycle
import Synchronization

/// Whether the server should be sent traffic: ready once every service runs, not ready from
/// the moment a graceful shutdown begins.
///
/// It is the last service of the group, so it starts after the others and is the first to
/// hear of a graceful shutdown (the group tells services in reverse order).
package final class ReadinessService: Service, Sendable {
    private let ready = Atomic<Bool>(false)
    private let announce: @Sendable () -> Void

    /// - Parameter announce: called once the server is ready (it logs that it is listening).
    package init(announce: @escaping @Sendable () -> Void) {
        self.announce = announce
    }

    /// Whether the server is ready for traffic now.
    package var isReady: Bool { ready.load(ordering: .acquiring) }

    /// Ready until the service group shuts down gracefully.
    package func run() async {
        ready.store(true, ordering: .releasing)
        announce()
        try? await gracefulShutdown()
        ready.store(false, ordering: .releasing)
    }
}
