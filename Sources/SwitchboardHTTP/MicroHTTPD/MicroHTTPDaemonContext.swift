import Logging
import Synchronization

/// What the C callbacks share across MHD's threads, reached through MHD's `cls` pointer: the
/// configuration's limits, the connection registry and its watchdog, the application's
/// handler, and the parts each concern keeps (``drain``, ``offWorker``, ``bodyBuffers``).
///
/// Its extensions hold the policies: `+Requests` (one call of the access handler), and
/// `+Responses` (turning an ``HTTPResponse`` into a queued libmicrohttpd response).
final class MicroHTTPDaemonContext: Sendable {
    /// What the access handler tells libmicrohttpd after one call.
    enum Step {
        /// Go on (`MHD_YES`).
        case proceed
        /// The upload data of this call was taken (its size is set to 0; `MHD_YES`).
        case consumedUpload
        /// Close the connection without an answer (`MHD_NO`).
        case closeConnection
    }

    let limits: HTTPRequestAssembler.Limits
    let registry: ConnectionRegistry
    let watchdog: ConnectionWatchdog
    /// Paths answered even on a connection over the limits (probes).
    let probePaths: Set<String>
    let handler: HTTPServer.Handler
    let refusalResponder: @Sendable (HTTPRefusal) -> HTTPResponse
    let logger: Logger
    /// The certificate of a TLS listener (`nil` for plain HTTP).
    let servedCertificate: ServedCertificate?
    /// The requests in flight and the drain of a graceful shutdown.
    let drain = RequestDrain()
    /// The requests the application runs off MHD's threads, suspended meanwhile.
    let offWorker: OffWorkerRequests
    /// Each worker thread's body buffer, lent to the handler.
    let bodyBuffers = WorkerBodyBuffers()
    /// How long a request may take to arrive once its line is in, in nanoseconds.
    private let requestDeadlineNanoseconds: UInt64
    /// How long a keep-alive connection may idle and then send its next request, in nanoseconds.
    private let keepAliveDeadlineNanoseconds: UInt64
    /// The last message libmicrohttpd logged (explains a failed start).
    let lastLibraryMessage = Mutex<String?>(nil)
    /// How many of the library's messages are logged (each malformed request makes one).
    private let libraryLogLimit = Mutex(LibraryLogLimit(burst: 20, window: .seconds(10)))

    /// Starts the ``watchdog``'s thread: stop it with the daemon.
    init(
        configuration: HTTPServerConfiguration, logger: Logger,
        refusalResponder: @escaping @Sendable (HTTPRefusal) -> HTTPResponse,
        offWorker: OffWorkerPolicy? = nil,
        handler: @escaping HTTPServer.Handler
    ) {
        self.limits = HTTPRequestAssembler.Limits(
            maxURLLength: configuration.maxURLLength,
            maxBodySize: configuration.maxBodySize,
            maxDiscardedBodySize: configuration.maxDiscardedBodySize)
        let registry = ConnectionRegistry(
            limits: ConnectionRegistry.Limits(
                maxConnections: configuration.maxConnections,
                maxConnectionsPerClient: configuration.maxConnectionsPerClient,
                requestTimeout: configuration.requestTimeout,
                keepAliveIdle: configuration.connectionTimeout,
                overLimitGrace: min(configuration.requestTimeout, .seconds(2))))
        self.registry = registry
        requestDeadlineNanoseconds = ConnectionRegistry.nanoseconds(of: registry.limits.requestTimeout)
        keepAliveDeadlineNanoseconds = ConnectionRegistry.nanoseconds(
            of: registry.limits.keepAliveIdle + registry.limits.requestTimeout)
        self.probePaths = configuration.probePaths
        self.logger = logger
        self.servedCertificate = configuration.tls
        self.refusalResponder = refusalResponder
        self.handler = handler
        self.offWorker = OffWorkerRequests(policy: offWorker, handler: handler)
        let timeout = HTTPRefusal(
            status: 408, code: "request_timeout",
            message: "the request did not arrive within \(configuration.requestTimeout)")
        // The watchdog writes its answers on the socket itself, past libmicrohttpd: on a TLS
        // connection such bytes would break the stream, so there it only closes.
        let plain = configuration.tls == nil
        self.watchdog = ConnectionWatchdog(
            registry: registry,
            timeoutAnswer: plain ? Self.respond(to: timeout, with: refusalResponder).closingWireBytes : [],
            overLimitAnswer: plain
                ? Self.respond(to: Self.overLimitRefusal(.serverFull), with: refusalResponder).closingWireBytes : [],
            maxLingeringBytes: configuration.maxDiscardedBodySize)
    }

    /// The refusal for a request on a connection over the limits.
    static func overLimitRefusal(_ admission: ConnectionRegistry.Admission) -> HTTPRefusal {
        let which = admission == .clientFull ? "from this client address" : "to this server"
        return HTTPRefusal(
            status: 503, code: "too_many_connections",
            message: "too many connections are open \(which); retry later", retryAfterSeconds: 1)
    }

    /// The responder's answer to `refusal`, with its `Retry-After`.
    static func respond(
        to refusal: HTTPRefusal, with responder: @Sendable (HTTPRefusal) -> HTTPResponse
    ) -> HTTPResponse {
        var response = responder(refusal)
        if let seconds = refusal.retryAfterSeconds {
            response.headers.append((name: "Retry-After", value: "\(seconds)"))
        }
        return response
    }

    /// A new request whose raw target (path and query, still percent-encoded) is `target`
    /// (`nil` when the request line had none): its assembler, which the caller keeps until
    /// ``endRequest(_:)``.
    func beginRequest(target rawTarget: UnsafeBufferPointer<UInt8>?, on connection: MicroHTTPDConnection?)
        -> HTTPRequestAssembler
    {
        let target = rawTarget.map(HTTPRequestAssembler.RawTarget.init(bytes:)) ?? .missing
        let registered = connection?.registered
        // The request line is in: the rest of the request has requestTimeout from now.
        registered?.tighten(to: ConnectionRegistry.now() &+ requestDeadlineNanoseconds)
        drain.requestBegan()
        let assembler = HTTPRequestAssembler(target: target, limits: limits, connection: registered)
        if let rawTarget, let start = rawTarget.baseAddress {
            assembler.rawTargetEnd = UInt(bitPattern: start) + UInt(rawTarget.count)
        }
        return assembler
    }

    /// The request is over (answered, failed or the connection closed).
    func endRequest(_ assembler: HTTPRequestAssembler) {
        // A keep-alive connection may idle, then has requestTimeout for its next request.
        assembler.connection?.arm(at: ConnectionRegistry.now() &+ keepAliveDeadlineNanoseconds)
        drain.requestEnded()
    }

    /// A connection has opened: registers it, deciding whether it is within the limits. The
    /// caller keeps the record with the connection until ``connectionClosed(_:)``.
    func connectionOpened(_ connection: MicroHTTPDConnection) -> ConnectionRegistry.Connection {
        let registered = registry.open(
            socket: connection.socket, client: connection.clientAddress, servedCertificate: servedCertificate)
        if registered.admission != .admitted {
            logger.notice(
                "connection over the limit: its request gets 503",
                metadata: [
                    "limit": "\(registered.admission == .serverFull ? "max_connections" : "max_connections_per_client")",
                    "client": "\(registered.client ?? "unknown")",
                ])
        }
        return registered
    }

    /// A connection has closed (MHD closes its socket next): unregisters it and hands a
    /// duplicate socket kept for a close in stages to the watchdog.
    func connectionClosed(_ registered: ConnectionRegistry.Connection) {
        registry.close(registered)
        let lingering = registered.lingeringSocket.exchange(-1, ordering: .acquiringAndReleasing)
        if lingering >= 0 { watchdog.closeInStages(lingering) }
    }

    /// A diagnostic from libmicrohttpd itself.
    func libraryLogged(_ message: String) {
        lastLibraryMessage.withLock { $0 = message }
        let (decision, limit) = libraryLogLimit.withLock { limit in (limit.admit(at: .now), limit) }
        switch decision {
        case .leaveOut:
            return
        case .log(let leftOut):
            if leftOut > 0 {
                logger.warning(
                    "libmicrohttpd: \(leftOut) more messages were not logged (at most \(limit.burst) in \(limit.window) are)")
            }
            logger.warning("libmicrohttpd: \(message)")
        }
    }
}
