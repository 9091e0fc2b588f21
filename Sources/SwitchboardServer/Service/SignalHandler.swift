import Dispatch
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns process signals into service events (STYLE #6): `SIGTERM` and `SIGINT` ask for a
/// graceful shutdown, `SIGHUP` asks for a config reload.
///
/// Uses `DispatchSource` signal sources; the callbacks run on `queue`, one at a time, never
/// in an async-signal context, so they may log, lock and block (`HTTPServer.shutdown`
/// blocks for up to its grace period). All state is in the instance.
///
/// ```swift
/// let signals = SignalHandler(
///     logger: logger,
///     onShutdown: { _ in server.shutdown(grace: .seconds(10)) },
///     onReload: { reloader.reload(reason: "SIGHUP") })
/// signals.start()
/// try server.start()
/// await server.waitUntilShutdown()
/// signals.stop()
/// ```
package final class SignalHandler: Sendable {
    /// A signal the service reacts to.
    package enum Signal: Sendable, CaseIterable, CustomStringConvertible {
        /// `SIGTERM`: shut down (what `docker stop` and systemd send).
        case terminate
        /// `SIGINT`: shut down (Ctrl-C).
        case interrupt
        /// `SIGHUP`: reload the configuration.
        case hangup

        /// The signal number.
        package var number: Int32 {
            switch self {
            case .terminate: SIGTERM
            case .interrupt: SIGINT
            case .hangup: SIGHUP
            }
        }

        /// `SIGTERM`, `SIGINT`, `SIGHUP`.
        package var description: String {
            switch self {
            case .terminate: "SIGTERM"
            case .interrupt: "SIGINT"
            case .hangup: "SIGHUP"
            }
        }
    }

    private let logger: Logger
    private let queue: DispatchQueue
    private let onShutdown: @Sendable (Signal) -> Void
    private let onReload: @Sendable () -> Void
    private let sources = Mutex<[any DispatchSourceSignal]?>(nil)
    /// How long ``start()`` waits for libdispatch to register the sources, in seconds.
    private static let registrationTimeoutSeconds = 5

    /// Creates a handler; nothing is installed until ``start()``.
    ///
    /// - Parameters:
    ///   - logger: receives one `notice` per signal.
    ///   - queue: where the callbacks run (a private serial queue by default).
    ///   - onShutdown: called for each `SIGTERM`/`SIGINT`; a second signal while shutting
    ///     down calls it again (the callee decides whether to hurry).
    ///   - onReload: called for each `SIGHUP` (signals that arrive together may coalesce).
    package init(
        logger: Logger,
        queue: DispatchQueue = DispatchQueue(label: "switchboard.signals"),
        onShutdown: @escaping @Sendable (Signal) -> Void,
        onReload: @escaping @Sendable () -> Void
    ) {
        self.logger = logger
        self.queue = queue
        self.onShutdown = onShutdown
        self.onReload = onReload
    }

    deinit {
        stop()
    }

    /// Starts listening for the signals (idempotent), and returns once they are handled.
    ///
    /// Their default action (terminating the process) is disabled first, so a signal arriving
    /// while the sources register is ignored rather than fatal. libdispatch registers a source
    /// later, on its own thread; until then a signal is discarded. So this waits (up to
    /// `registrationTimeoutSeconds`) for every source to report that it is registered: a SIGHUP sent
    /// right after `start()` returns is not lost. Do not call it on `queue`, where the
    /// registrations are reported.
    package func start() {
        sources.withLock { sources in
            guard sources == nil else { return }
            let registered = DispatchGroup()
            var created: [any DispatchSourceSignal] = []
            for kind in Signal.allCases {
                // Before the source exists: libdispatch then installs its own handler
                // (Linux: signalfd) when the source registers; SIG_IGN set after that
                // would break it.
                _ = signal(kind.number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: kind.number, queue: queue)
                registered.enter()
                source.setRegistrationHandler { registered.leave() }
                source.setEventHandler { [logger, onShutdown, onReload] in
                    logger.notice("received \(kind)")
                    switch kind {
                    case .terminate, .interrupt: onShutdown(kind)
                    case .hangup: onReload()
                    }
                }
                source.resume()
                created.append(source)
            }
            let timeout = Self.registrationTimeoutSeconds
            if registered.wait(timeout: .now() + .seconds(timeout)) == .timedOut {
                logger.warning("signal sources not registered after \(timeout) s; signals sent now may be ignored")
            }
            sources = created
        }
    }

    /// Stops listening and restores the default actions (idempotent).
    package func stop() {
        let active = sources.withLock { sources in
            defer { sources = nil }
            return sources
        }
        guard let active else { return }
        for source in active { source.cancel() }
        for kind in Signal.allCases { _ = signal(kind.number, SIG_DFL) }
    }
}
