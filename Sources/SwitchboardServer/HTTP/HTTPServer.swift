import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The HTTP/1.1 server of Switchboard, on libmicrohttpd: a long-running service with a
/// graceful shutdown (STYLE #6). It knows nothing of endpoints: every complete request goes to
/// `handler`, whose response is sent back.
///
/// The handler runs synchronously on one of libmicrohttpd's threads and must not block for
/// long: while it runs, the other connections of that worker thread wait.
///
/// ```swift
/// let server = try HTTPServer(
///     configuration: HTTPServerConfiguration(listen: "127.0.0.1:0"), logger: logger
/// ) { request in
///     request.path == "/healthz" ? .json(#"{"status":"ok"}"#)
///         : .error(status: 404, code: "not_found", message: "no such endpoint")
/// }
/// try server.start()
/// print(server.boundPort)
/// // later, e.g. on SIGTERM:
/// server.shutdown(grace: .seconds(10))
/// ```
package final class HTTPServer: Sendable {
    private enum State {
        case idle
        case running(MicroHTTPDaemon)
        case stopping
        case stopped
    }

    private struct Waiters {
        var finished = false
        var continuations: [CheckedContinuation<Void, Never>] = []
    }

    /// The validated configuration.
    package let configuration: HTTPServerConfiguration
    private let logger: Logger
    private let handler: @Sendable (HTTPRequest) -> HTTPResponse
    private let state = Mutex<State>(.idle)
    private let waiters = Mutex<Waiters>(Waiters())
    private let port = Atomic<Int>(0)

    /// Creates a server; nothing listens until ``start()``.
    ///
    /// - Parameters:
    ///   - configuration: address, threading and limits; validated here.
    ///   - logger: where the server logs (start, shutdown, libmicrohttpd's diagnostics,
    ///     responses that could not be sent).
    ///   - handler: answers one request; called concurrently from several threads.
    /// - Throws: ``HTTPServerError`` (`invalidConfiguration`, `invalidListenAddress`).
    package init(
        configuration: HTTPServerConfiguration,
        logger: Logger,
        handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) throws(HTTPServerError) {
        try configuration.validate()
        self.configuration = configuration
        self.logger = logger
        self.handler = handler
    }

    deinit {
        if case .running(let daemon) = state.withLock({ $0 }) {
            daemon.stop()
        }
    }

    /// Starts listening and serving; returns once the socket is bound.
    ///
    /// - Throws: ``HTTPServerError``: `startFailed` (with libmicrohttpd's reason, e.g. the
    ///   port is in use) or `invalidState` if the server was already started.
    package func start() throws(HTTPServerError) {
        try state.withLock { (state: inout State) throws(HTTPServerError) in
            guard case .idle = state else {
                throw HTTPServerError(
                    .invalidState, "the HTTP server was already started", context: "HTTPServer.start()",
                    fix: "create a new HTTPServer to listen again")
            }
            let limits = HTTPRequestAssembler.Limits(
                maxURLLength: configuration.maxURLLength,
                maxBodySize: configuration.maxBodySize,
                maxDiscardedBodySize: configuration.maxDiscardedBodySize)
            let context = MicroHTTPDaemonContext(limits: limits, logger: logger, handler: handler)
            let daemon = try MicroHTTPDaemon(configuration: configuration, context: context)
            port.store(daemon.boundPort, ordering: .releasing)
            state = .running(daemon)
        }
        logger.info(
            "HTTP server listening",
            metadata: [
                "address": "\(HTTPServerConfiguration.formatListenAddress(host: configuration.host, port: boundPort))",
                "threading": "\(configuration.threadingMode)",
                "threads": "\(configuration.threadingMode == .threadPerConnection ? 0 : configuration.threadPoolSize)",
                "maxConnections": "\(configuration.maxConnections)",
            ])
    }

    /// The TCP port the server listens on: the kernel's choice when the configured port was
    /// 0. 0 before ``start()``; keeps its value after shutdown.
    package var boundPort: Int { port.load(ordering: .acquiring) }

    /// Requests received and not yet fully answered (0 when not running).
    package var inFlightRequestCount: Int {
        if case .running(let daemon) = state.withLock({ $0 }) { return daemon.inFlightRequests }
        return 0
    }

    /// Stops the server gracefully; blocks the caller until it has stopped.
    ///
    /// New connections are refused at once; requests already received are answered (their
    /// responses carry `Connection: close`) for up to `grace`; then every connection is
    /// closed and the threads are joined (a handler still running is waited for).
    /// Calling it again, or before ``start()``, is harmless.
    ///
    /// - Parameter grace: how long in-flight requests may take to finish.
    package func shutdown(grace: Duration) {
        let daemon: MicroHTTPDaemon? = state.withLock { state in
            switch state {
            case .idle:
                state = .stopped
                return nil
            case .running(let daemon):
                state = .stopping
                return daemon
            case .stopping, .stopped:
                return nil
            }
        }
        guard let daemon else {
            finishWaiters()
            return
        }
        logger.info(
            "HTTP server shutting down",
            metadata: ["inFlight": "\(daemon.inFlightRequests)", "grace": "\(grace)"])
        daemon.context.isDraining.store(true, ordering: .relaxed)
        daemon.stopAccepting()

        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: grace)
        while daemon.inFlightRequests > 0, clock.now < deadline {
            _ = usleep(2_000)
        }
        let abandoned = daemon.inFlightRequests
        if abandoned > 0 {
            logger.warning(
                "shutdown grace elapsed; closing connections with requests in flight",
                metadata: ["inFlight": "\(abandoned)"])
        }
        daemon.stop()
        state.withLock { $0 = .stopped }
        logger.info("HTTP server stopped")
        finishWaiters()
    }

    /// Suspends until the server has stopped (returns at once if it already has).
    package func waitUntilShutdown() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let alreadyFinished = waiters.withLock { waiters in
                if waiters.finished { return true }
                waiters.continuations.append(continuation)
                return false
            }
            if alreadyFinished { continuation.resume() }
        }
    }

    private func finishWaiters() {
        let continuations = waiters.withLock { waiters in
            waiters.finished = true
            defer { waiters.continuations = [] }
            return waiters.continuations
        }
        for continuation in continuations { continuation.resume() }
    }
}
