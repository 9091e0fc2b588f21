import Logging
import ServiceLifecycle
import Synchronization

/// The HTTP/1.1 server of Switchboard, on libmicrohttpd: a `Service` that serves until the
/// service group shuts down gracefully, then drains. It knows nothing of endpoints: every
/// complete request goes to `handler`, whose response is sent back.
///
/// The handler runs synchronously on one of libmicrohttpd's threads and must not block for
/// long: while it runs, the other connections of that worker thread wait. The requests the
/// application's ``OffWorkerPolicy`` names run on its executor instead, while their
/// connection is suspended.
///
/// Every call of the handler gets a body buffer, empty, that belongs to the calling thread
/// and is reused from request to request: a handler that writes its body there and answers
/// with it (`.json(status: 200, body)`) sends it without an array of its own.
///
/// ```swift
/// let server = try HTTPServer(
///     configuration: HTTPServerConfiguration(listen: "127.0.0.1:0"), logger: logger
/// ) { request, body in
///     guard request.path == "/healthz" else { return .text(status: 404, "no such endpoint") }
///     body.append(contentsOf: #"{"status":"ok"}"#.utf8)
///     return .json(body)
/// }
/// try server.start()               // binds; `boundPort` is known from here
/// try await ServiceGroup(services: [server], gracefulShutdownSignals: [.sigterm], logger: logger).run()
/// ```
package final class HTTPServer: Service, Sendable {
    /// Answers one request: called concurrently from several threads with the calling
    /// thread's body buffer, emptied.
    package typealias Handler = @Sendable (_ request: HTTPRequest, _ body: inout [UInt8]) -> HTTPResponse

    private enum State {
        case idle
        case running(MicroHTTPDaemon)
        case stopping
        case stopped
    }

    /// The validated configuration.
    package let configuration: HTTPServerConfiguration
    private let logger: Logger
    private let handler: Handler
    private let offWorker: OffWorkerPolicy?
    private let refusalResponder: @Sendable (HTTPRefusal) -> HTTPResponse
    private let state = Mutex<State>(.idle)
    private let stopped = Completion()
    private let port = Atomic<Int>(0)

    /// Creates a server; nothing listens until ``start()`` (or ``run()``).
    ///
    /// - Parameters:
    ///   - configuration: address, threading and limits; validated here.
    ///   - logger: where the server logs (start, shutdown, libmicrohttpd's diagnostics,
    ///     responses that could not be sent).
    ///   - refusalResponder: the response for a request the HTTP layer refuses by itself
    ///     (over a limit, malformed); plain text unless the application gives its own.
    ///   - offWorker: which requests run off libmicrohttpd's threads, and on what executor;
    ///     `nil` answers every request on the worker thread that read it.
    ///   - handler: answers one request; called concurrently from several threads.
    /// - Throws: ``HTTPServerError`` (`invalidConfiguration`, `invalidListenAddress`).
    package init(
        configuration: HTTPServerConfiguration,
        logger: Logger,
        refusalResponder: @escaping @Sendable (HTTPRefusal) -> HTTPResponse = HTTPRefusal.plainTextResponse,
        offWorker: OffWorkerPolicy? = nil,
        handler: @escaping Handler
    ) throws(HTTPServerError) {
        try configuration.validate()
        self.configuration = configuration
        self.logger = logger
        self.refusalResponder = refusalResponder
        self.offWorker = offWorker
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
            let context = MicroHTTPDaemonContext(
                configuration: configuration, logger: logger, refusalResponder: refusalResponder,
                offWorker: offWorker, handler: handler)
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
                "tls": "\(configuration.tls != nil)",
            ])
    }

    /// Serves until the service group shuts down gracefully (or the task is cancelled), then
    /// drains for up to ``HTTPServerConfiguration/shutdownGrace`` and stops. Starts the server
    /// first when ``start()`` has not been called.
    ///
    /// - Throws: ``HTTPServerError`` when the server cannot start.
    package func run() async throws {
        if case .idle = state.withLock({ $0 }) {
            try start()
        }
        // Returns when graceful shutdown begins; throws when the task is cancelled instead.
        try? await gracefulShutdown()
        await shutdown(grace: Task.isCancelled ? .zero : configuration.shutdownGrace)
    }

    /// The TCP port the server listens on: the kernel's choice when the configured port was
    /// 0. 0 before ``start()``; keeps its value after shutdown.
    package var boundPort: Int { port.load(ordering: .acquiring) }

    /// Requests received and not yet fully answered (0 when not running).
    package var inFlightRequestCount: Int {
        if case .running(let daemon) = state.withLock({ $0 }) { return daemon.inFlightRequests }
        return 0
    }

    /// Connections open now, within the connection limits or over them (0 when not running).
    package var openConnectionCount: Int {
        if case .running(let daemon) = state.withLock({ $0 }) { return daemon.context.registry.openCount }
        return 0
    }

    /// Stops the server gracefully.
    ///
    /// New connections are refused at once; requests already received are answered (their
    /// responses carry `Connection: close`) until none is left or `grace` has passed; then
    /// every connection is closed and the threads are joined (a handler still running is
    /// waited for). Calling it again, or before ``start()``, waits for the first call to end.
    ///
    /// - Parameter grace: how long in-flight requests may take to finish.
    package func shutdown(grace: Duration) async {
        guard let daemon = beginStopping() else {
            await stopped.wait()
            return
        }
        daemon.stopAccepting()
        // Logged once draining has begun: every answer from here on closes its connection.
        logger.info(
            "HTTP server shutting down",
            metadata: ["inFlight": "\(daemon.inFlightRequests)", "grace": "\(grace)"])
        let drained = await daemon.context.drain.waitUntilIdle(timeout: grace)
        if !drained {
            logger.warning(
                "shutdown grace elapsed; closing connections with requests in flight",
                metadata: ["inFlight": "\(daemon.inFlightRequests)"])
        }
        finishStopping(daemon)
    }

    /// Stops the server at once, closing every connection; blocks until MHD's threads are
    /// joined. For owners that cannot wait asynchronously (a `deinit`).
    package func stopNow() {
        guard let daemon = beginStopping() else { return }
        daemon.stopAccepting()
        finishStopping(daemon)
    }

    /// Suspends until the server has stopped (returns at once if it already has).
    package func waitUntilStopped() async {
        await stopped.wait()
    }

    /// Moves to `stopping`; returns the daemon to stop, or `nil` when there is none (never
    /// started, or another caller is stopping it).
    private func beginStopping() -> MicroHTTPDaemon? {
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
        if daemon == nil, case .stopped = state.withLock({ $0 }) { stopped.complete() }
        return daemon
    }

    private func finishStopping(_ daemon: MicroHTTPDaemon) {
        daemon.stop()
        state.withLock { $0 = .stopped }
        logger.info("HTTP server stopped")
        stopped.complete()
    }
}
