// The only Swift file that touches libmicrohttpd's pointers (STYLE #5): every `Unsafe*`,
// `Unmanaged` and `OpaquePointer` of the C boundary is here. The C callbacks are top-level
// functions (Swift 6.3.1 crashes converting a capturing closure to a C function pointer);
// they reach Swift objects through MHD's `void *` closures:
//
// - the daemon closure is a `MicroHTTPDaemonContext`, passed unretained (the
//   `MicroHTTPDaemon` owning it outlives `MHD_stop_daemon`);
// - the per-request closure (`*con_cls`) is an `HTTPRequestAssembler`, retained by the URI
//   log callback (which runs once per request, before MHD parses the target) and released
//   by the request-completed callback (which MHD calls for every request the URI log
//   callback saw: both set `client_aware` in 0.9.75);
// - the per-connection closure (`socket_context`) is a `ConnectionRegistry.Connection`,
//   retained when the connection-notify callback reports it open and released when it
//   reports it closed (before MHD closes the socket).

import CMicroHTTPD
import Dispatch
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - Daemon

/// A running libmicrohttpd daemon: start, stop accepting, stop.
///
/// `HTTPServer` owns one and serialises the lifecycle calls; this type only guarantees that
/// the daemon is stopped once (explicitly or at `deinit`).
final class MicroHTTPDaemon: Sendable {
    /// `struct MHD_Daemon *`, confined here.
    private struct DaemonPointer: @unchecked Sendable {
        let raw: OpaquePointer
    }

    private let daemon: DaemonPointer
    /// Shared with the callbacks; must stay alive until `MHD_stop_daemon` has returned.
    let context: MicroHTTPDaemonContext
    /// The port actually bound (the kernel's choice when the configuration said 0).
    let boundPort: Int
    /// The listen socket handed back by `MHD_quiesce_daemon`; closed after the daemon stops.
    private let quiescedListenSocket = Mutex<Int32?>(nil)
    private let stopped = Atomic<Bool>(false)

    /// Starts listening and serving with the configured threading mode.
    ///
    /// - Throws: ``HTTPServerError`` (`startFailed`) with libmicrohttpd's own reason,
    ///   e.g. the port is in use.
    init(configuration: HTTPServerConfiguration, context: MicroHTTPDaemonContext) throws(HTTPServerError) {
        self.context = context
        let where_ = "libmicrohttpd MHD_start_daemon on \(configuration.listenDescription)"
        let family = try HTTPServerConfiguration.addressFamily(ofHost: configuration.host, in: where_)

        // Suspend/resume: requests that change state (reloads, admin writes) run off MHD's
        // threads, so a worker never stops serving its other connections (design.md §6).
        var flags =
            MHD_USE_ITC.rawValue | MHD_USE_ERROR_LOG.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue
        switch configuration.threadingMode {
        case .pollThreadPool: flags |= MHD_USE_POLL.rawValue
        case .epollThreadPool: flags |= MHD_USE_EPOLL.rawValue
        case .threadPerConnection: flags |= MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_POLL.rawValue
        }
        if family == .ipv6 { flags |= MHD_USE_IPv6.rawValue }

        let contextPointer = Unmanaged.passUnretained(context).toOpaque()
        var options: [MHD_OptionItem] = [
            // The logger first, so that MHD reports option errors through it too.
            sb_mhd_option_logger(microHTTPDaemonLog, contextPointer),
            // Above maxConnections, so that clients over it are read and answered 503 instead of
            // waiting in the listen backlog (MHD stops accepting at its own limit).
            sb_mhd_option_unsigned(.CONNECTION_LIMIT, UInt32(configuration.libraryConnectionLimit)),
            sb_mhd_option_unsigned(.CONNECTION_TIMEOUT, UInt32(configuration.connectionTimeoutSeconds)),
            sb_mhd_option_size(.CONNECTION_MEMORY_LIMIT, configuration.connectionMemoryLimit),
            sb_mhd_option_uri_log(microHTTPDaemonRequestStarted, contextPointer),
            sb_mhd_option_notify_completed(microHTTPDaemonRequestCompleted, contextPointer),
            sb_mhd_option_notify_connection(microHTTPDaemonConnectionChanged, contextPointer),
            // The handler reads the raw target from the URI log callback, never MHD's decoded
            // path or arguments: decoding them on every request would be wasted work.
            sb_mhd_option_unescape(microHTTPDaemonKeepEscaped, nil),
        ]
        if configuration.threadingMode != .threadPerConnection, configuration.threadPoolSize > 1 {
            options.append(sb_mhd_option_unsigned(.THREAD_POOL_SIZE, UInt32(configuration.threadPoolSize)))
        }
        options.append(sb_mhd_option_end())

        let numericHost = HTTPServerConfiguration.numericHost(configuration.host)
        let port = UInt16(clamping: configuration.port)
        let started: OpaquePointer? = options.withUnsafeBufferPointer { optionArray in
            MicroHTTPDaemon.withSocketAddress(host: numericHost, port: port, family: family) { address in
                sb_mhd_start_daemon(
                    flags, port, address, microHTTPDaemonAccessHandler, contextPointer, optionArray.baseAddress)
            }
        }
        guard let started else {
            context.watchdog.stop()
            let reason = context.lastLibraryMessage.withLock { $0 } ?? "no reason given"
            throw HTTPServerError(
                .startFailed, "cannot listen on \(configuration.listenDescription): \(reason)", context: where_,
                fix: "check that the address belongs to this machine and that no other process uses the port "
                    + "(or use port 0 to pick a free one)")
        }
        daemon = DaemonPointer(raw: started)
        boundPort = Int(sb_mhd_daemon_bound_port(started))
    }

    deinit {
        stop()
    }

    /// Requests between their request line and the end of their response, on all threads.
    var inFlightRequests: Int { context.inFlightRequests.load(ordering: .relaxed) }

    /// Connections currently open (all workers).
    var connectionCount: Int { Int(sb_mhd_daemon_connection_count(daemon.raw)) }

    /// Stops accepting connections (`MHD_quiesce_daemon`) and makes the kernel refuse new
    /// ones (`shutdown(2)` on the listen socket); open connections are still served.
    ///
    /// From here on every response carries `Connection: close`, and the context wakes its
    /// ``MicroHTTPDaemonContext/waitUntilIdle(timeout:)`` waiters when the last request ends.
    func stopAccepting() {
        context.isDraining.store(true, ordering: .sequentiallyConsistent)
        let socket = MHD_quiesce_daemon(daemon.raw)
        guard socket >= 0 else { return }
        // MHD's threads may still have the socket in a poll set: it must not be closed
        // before MHD_stop_daemon, but shutting it down is safe and refuses new clients.
        #if canImport(Glibc)
            _ = Glibc.shutdown(socket, Int32(SHUT_RDWR))
        #elseif canImport(Darwin)
            _ = Darwin.shutdown(socket, SHUT_RDWR)
        #endif
        quiescedListenSocket.withLock { $0 = socket }
    }

    /// Stops the daemon: closes every connection and joins MHD's threads (a handler still
    /// running is waited for). Idempotent.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // libmicrohttpd aborts the process when it stops with a connection still suspended
        // (a write whose handler outlived the shutdown grace, e.g. waiting on a frozen store).
        context.resumeEverySuspendedRequest()
        MHD_stop_daemon(daemon.raw)
        context.watchdog.stop()
        if let socket = quiescedListenSocket.withLock({ $0 }) {
            _ = close(socket)
        }
    }

    /// Calls `body` with a `sockaddr` for `host` (numeric) and `port`.
    private static func withSocketAddress<Result>(
        host: String, port: UInt16, family: HTTPServerConfiguration.AddressFamily,
        _ body: (UnsafePointer<sockaddr>) -> Result
    ) -> Result {
        switch family {
        case .ipv4:
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(port.bigEndian)
            _ = inet_pton(AF_INET, host, &address.sin_addr)
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
            }
        case .ipv6:
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(port.bigEndian)
            _ = inet_pton(AF_INET6, host, &address.sin6_addr)
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
            }
        }
    }
}

// MARK: - Shared context

/// What the C callbacks share across MHD's threads, reached through MHD's `cls` pointer.
final class MicroHTTPDaemonContext: Sendable {
    let limits: HTTPRequestAssembler.Limits
    let registry: ConnectionRegistry
    let watchdog: ConnectionWatchdog
    /// Paths answered even on a connection over the limits (probes).
    let probePaths: Set<String>
    let handler: @Sendable (HTTPRequest) -> HTTPResponse
    let directAnswerer: (@Sendable (HTTPRequest, inout [UInt8]) -> HTTPDirectAnswer)?
    let refusalResponder: @Sendable (HTTPRefusal) -> HTTPResponse
    let logger: Logger
    /// Each worker thread's ``WorkerBodyBuffer`` for direct answers (retained by the thread's
    /// value, released when the thread ends); `nil` when the process has no key left, and
    /// each direct answer then gets a buffer of its own.
    private let bodyBufferKey: pthread_key_t?
    /// How long a request may take to arrive once its line is in, in nanoseconds.
    private let requestDeadlineNanoseconds: UInt64
    /// How long a keep-alive connection may idle and then send its next request, in nanoseconds.
    private let keepAliveDeadlineNanoseconds: UInt64
    /// Requests seen by the URI log callback and not yet completed.
    let inFlightRequests = Atomic<Int>(0)
    /// Set when shutdown begins: every response then carries `Connection: close`.
    let isDraining = Atomic<Bool>(false)
    /// Who waits for the last request in flight to end, by waiter number.
    private let idleWaiters = Mutex<(next: Int, waiting: [Int: CheckedContinuation<Void, Never>])>((0, [:]))
    /// The last message libmicrohttpd logged (explains a failed start).
    let lastLibraryMessage = Mutex<String?>(nil)
    /// Connections suspended while their request runs off MHD's threads, and whether the
    /// daemon is stopping (then none may be suspended any more). Each is resumed once, by
    /// whoever takes it out: its handler, or the stop.
    private let suspended = Mutex<(requests: [ObjectIdentifier: SuspendedRequest], isStopping: Bool)>(([:], false))
    /// How many of the library's messages are logged (each malformed request makes one).
    private let libraryLogLimit = Mutex(LibraryLogLimit(burst: 20, window: .seconds(10)))

    /// Starts the ``watchdog``'s thread: stop it with the daemon.
    init(
        configuration: HTTPServerConfiguration, logger: Logger,
        refusalResponder: @escaping @Sendable (HTTPRefusal) -> HTTPResponse,
        directAnswerer: (@Sendable (HTTPRequest, inout [UInt8]) -> HTTPDirectAnswer)? = nil,
        handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
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
        self.refusalResponder = refusalResponder
        self.directAnswerer = directAnswerer
        self.handler = handler
        var key = pthread_key_t()
        self.bodyBufferKey = pthread_key_create(&key, microHTTPDaemonReleaseBodyBuffer) == 0 ? key : nil
        let timeout = HTTPRefusal(
            status: 408, code: "request_timeout",
            message: "the request did not arrive within \(configuration.requestTimeout)")
        self.watchdog = ConnectionWatchdog(
            registry: registry,
            timeoutAnswer: Self.respond(to: timeout, with: refusalResponder).closingWireBytes,
            overLimitAnswer: Self.respond(to: Self.overLimitRefusal(.serverFull), with: refusalResponder)
                .closingWireBytes,
            maxLingeringBytes: configuration.maxDiscardedBodySize)
    }

    deinit {
        // The daemon's threads have ended (each released its buffer): the key is unused.
        if let bodyBufferKey { pthread_key_delete(bodyBufferKey) }
    }

    /// The refusal for a request on a connection over the limits.
    static func overLimitRefusal(_ admission: ConnectionRegistry.Admission) -> HTTPRefusal {
        let which = admission == .clientFull ? "from this client address" : "to this server"
        return HTTPRefusal(
            status: 503, code: "too_many_connections",
            message: "too many connections are open \(which); retry later", retryAfterSeconds: 1)
    }

    /// The responder's answer to `refusal`, with its `Retry-After`.
    private static func respond(
        to refusal: HTTPRefusal, with responder: @Sendable (HTTPRefusal) -> HTTPResponse
    ) -> HTTPResponse {
        var response = responder(refusal)
        if let seconds = refusal.retryAfterSeconds {
            response.headers.append((name: "Retry-After", value: "\(seconds)"))
        }
        return response
    }

    /// A new request: its assembler, retained for MHD's `*con_cls`.
    fileprivate func beginRequest(rawTarget: UnsafePointer<CChar>?, connection: OpaquePointer?)
        -> UnsafeMutableRawPointer
    {
        let target: HTTPRequestAssembler.RawTarget
        let targetEnd: UInt?
        if let rawTarget {
            let length = strlen(rawTarget)
            target = rawTarget.withMemoryRebound(to: UInt8.self, capacity: length) {
                HTTPRequestAssembler.RawTarget(bytes: UnsafeBufferPointer(start: $0, count: length))
            }
            targetEnd = UInt(bitPattern: rawTarget) + UInt(length)
        } else {
            target = .missing
            targetEnd = nil
        }
        let registered = connection.flatMap(Self.registeredConnection)
        // The request line is in: the rest of the request has requestTimeout from now.
        registered?.tighten(to: ConnectionRegistry.now() &+ requestDeadlineNanoseconds)
        inFlightRequests.add(1, ordering: .sequentiallyConsistent)
        let assembler = HTTPRequestAssembler(target: target, limits: limits, connection: registered)
        assembler.rawTargetEnd = targetEnd
        return Unmanaged.passRetained(assembler).toOpaque()
    }

    /// The request is over (answered, failed or the connection closed): release its assembler.
    fileprivate func endRequest(_ slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        guard let assembler = slot.pointee else { return }
        slot.pointee = nil
        let released = Unmanaged<HTTPRequestAssembler>.fromOpaque(assembler)
        // A keep-alive connection may idle, then has requestTimeout for its next request.
        released.takeUnretainedValue().connection?.arm(at: ConnectionRegistry.now() &+ keepAliveDeadlineNanoseconds)
        released.release()
        let remaining = inFlightRequests.subtract(1, ordering: .sequentiallyConsistent).newValue
        // Only a draining server has waiters: the serving path never takes the lock.
        if remaining == 0, isDraining.load(ordering: .sequentiallyConsistent) {
            let waiters = idleWaiters.withLock { state in
                defer { state.waiting = [:] }
                return state.waiting.values
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// A connection has opened: registers it (deciding whether it is within the limits) and
    /// keeps it in MHD's `socket_context`.
    fileprivate func connectionOpened(_ connection: OpaquePointer, context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        let socket = Int32(sb_mhd_connection_socket(connection))
        let registered = registry.open(socket: socket, client: remoteAddress(of: connection))
        if registered.admission != .admitted {
            logger.notice(
                "connection over the limit: its request gets 503",
                metadata: [
                    "limit": "\(registered.admission == .serverFull ? "max_connections" : "max_connections_per_client")",
                    "client": "\(registered.client ?? "unknown")",
                ])
        }
        context.pointee = Unmanaged.passRetained(registered).toOpaque()
    }

    /// A connection has closed (MHD closes its socket next): unregisters it and hands a
    /// duplicate socket kept for a close in stages to the watchdog.
    fileprivate func connectionClosed(_ context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        guard let opaque = context.pointee else { return }
        context.pointee = nil
        let registered = Unmanaged<ConnectionRegistry.Connection>.fromOpaque(opaque).takeRetainedValue()
        registry.close(registered)
        let lingering = registered.lingeringSocket.exchange(-1, ordering: .acquiringAndReleasing)
        if lingering >= 0 { watchdog.closeInStages(lingering) }
    }

    /// The registry's record of an MHD connection, from its `socket_context`.
    private static func registeredConnection(_ connection: OpaquePointer) -> ConnectionRegistry.Connection? {
        sb_mhd_connection_socket_context(connection).map {
            Unmanaged<ConnectionRegistry.Connection>.fromOpaque($0).takeUnretainedValue()
        }
    }

    /// Waits until no request is in flight, or `timeout` has passed; call it once
    /// ``isDraining`` is set (``MicroHTTPDaemon/stopAccepting()`` sets it).
    ///
    /// - Returns: `true` when the server drained, `false` when the time ran out.
    func waitUntilIdle(timeout: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await self.idle()
                return !Task.isCancelled
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let drained = await group.next() ?? false
            group.cancelAll()
            return drained
        }
    }

    /// Returns once no request is in flight, or the task is cancelled.
    private func idle() async {
        let number = idleWaiters.withLock { state in
            defer { state.next += 1 }
            return state.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = idleWaiters.withLock { state in
                    if inFlightRequests.load(ordering: .sequentiallyConsistent) == 0 || Task.isCancelled {
                        return true
                    }
                    state.waiting[number] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            idleWaiters.withLock { $0.waiting.removeValue(forKey: number) }?.resume()
        }
    }

    /// One call of MHD's access handler.
    ///
    /// MHD calls it once when the headers are in, once per piece of body, and once more
    /// when the request is complete. The answer is queued on that last call: a response
    /// queued on the first call gets `Connection: close` from MHD 0.9.75 (measured: 23k
    /// instead of 110k req/s), so only rejections that should close it are queued early.
    fileprivate func handle(
        connection: OpaquePointer,
        method: UnsafePointer<CChar>?,
        version: UnsafePointer<CChar>?,
        uploadData: UnsafePointer<CChar>?,
        uploadSize: UnsafeMutablePointer<Int>,
        slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        if slot.pointee == nil {
            // The URI log callback always runs first; this is only a safety net.
            slot.pointee = beginRequest(rawTarget: nil, connection: connection)
        }
        guard let opaque = slot.pointee else { return .NO }
        let assembler = Unmanaged<HTTPRequestAssembler>.fromOpaque(opaque).takeUnretainedValue()

        if !assembler.hasStarted {
            MHD_get_connection_values_n(connection, .HEADER_KIND, microHTTPDaemonCollectHeader, opaque)
            // The last field had bytes after a NUL in its value, where its line should end.
            if assembler.nextFieldAddress != nil { assembler.untrustedHead = .nulInFramingField }
            let isHTTP11 = version.map { strcmp($0, "HTTP/1.1") == 0 } ?? false
            let isHTTP10 = !isHTTP11 && version.map { strcmp($0, "HTTP/1.0") == 0 } ?? false
            let refusal =
                assembler.headersComplete(
                    isHTTP11: isHTTP11, isHTTP10: isHTTP10, targetIsWhole: Self.targetIsWhole(assembler, version))
                ?? overLimitRefusal(assembler)
            if let refusal {
                guard assembler.connection?.disarm() ?? true else { return .NO }
                if assembler.announcesBody { keepForClosingInStages(connection, assembler) }
                return queue(Self.respond(to: refusal, with: refusalResponder), on: connection, closeConnection: true)
            }
            return .YES
        }

        let count = uploadSize.pointee
        // After "100 Continue" for a request without a body, libmicrohttpd hands the bytes of a
        // pipelined request to the handler as upload data with a size of 0, in a state where it
        // refuses to queue a response. The request is complete only on the call without data.
        if count == 0, uploadData != nil { return .YES }
        if count > 0 {
            switch assembler.acceptBody(count: count) {
            case .store:
                if let uploadData {
                    assembler.body.append(contentsOf: UnsafeRawBufferPointer(start: uploadData, count: count))
                }
            case .discard:
                break
            case .dropConnection:
                logger.notice(
                    "closing a connection whose request body exceeds the limit and the discard allowance",
                    metadata: ["maxBodySize": "\(limits.maxBodySize)"])
                return .NO
            }
            uploadSize.pointee = 0
            return .YES
        }

        // Called again after a resume: the answer computed off the MHD thread is ready.
        if let deferred = assembler.deferredResponse.withLock({ $0.take() }) {
            return queue(deferred, on: connection, closeConnection: assembler.connection?.admission != .admitted)
        }
        // The whole request is in: its deadline no longer applies, unless it has passed and
        // the watchdog has answered already.
        guard assembler.connection?.disarm() ?? true else { return .NO }
        let methodName = method.map { String(cString: $0) } ?? ""
        // The address the registry recorded when the connection opened: formatting it again
        // (inet_ntop, which formats with sprintf) would cost every request.
        let peer = if let registered = assembler.connection { registered.client } else { remoteAddress(of: connection) }
        switch assembler.finish(method: methodName, remoteAddress: peer) {
        case .failure(let refusal):
            return queue(Self.respond(to: refusal, with: refusalResponder), on: connection, closeConnection: true)
        case .success(let request):
            guard Self.runsOffWorker(request), !Self.peerFinishedSending(assembler) else {
                // A probe answered over the connection limits does not keep its room.
                let overLimit = assembler.connection.map { $0.admission != .admitted } ?? false
                if let answered = answerDirectly(request, on: connection, closeConnection: overLimit) { return answered }
                return queue(handler(request), on: connection, closeConnection: overLimit)
            }
            return handleOffWorker(request, connection: connection, assembler: assembler)
        }
    }

    /// Offers a `GET` request to the direct answerer with this thread's body buffer, and
    /// queues its answer; `nil` when there is none or it declined (the handler answers then).
    private func answerDirectly(_ request: HTTPRequest, on connection: OpaquePointer, closeConnection: Bool)
        -> MHD_Result?
    {
        guard let directAnswerer, request.method == "GET" else { return nil }
        let buffer = workerBodyBuffer()
        buffer.bytes.removeAll(keepingCapacity: true)
        switch directAnswerer(request, &buffer.bytes) {
        case .declined:
            return nil
        case .response(let response):
            return queue(response, on: connection, closeConnection: closeConnection)
        case .written(let status, let headers):
            // The response shares the buffer's storage while libmicrohttpd copies the body;
            // the buffer is its only owner again before the thread's next request.
            return queue(
                HTTPResponse(status: status, headers: headers, body: buffer.bytes), on: connection,
                closeConnection: closeConnection)
        case .json(let status):
            return queueJSON(status: status, body: buffer.bytes, on: connection, closeConnection: closeConnection)
        }
    }

    /// Queues a JSON answer with its `Content-Type` from constant C strings: the same response
    /// as ``queue(_:on:closeConnection:)`` makes of `HTTPResponse.json(status:_:)`, without a
    /// header list to check and copy on every request. Anything libmicrohttpd refuses is left to
    /// that general path, which reports it.
    private func queueJSON(status: Int, body: [UInt8], on connection: OpaquePointer, closeConnection: Bool)
        -> MHD_Result
    {
        let close = closeConnection || isDraining.load(ordering: .relaxed)
        if (200...599).contains(status), let built = Self.responseCopying(body) {
            defer { MHD_destroy_response(built) }
            if Self.addJSONContentType(to: built), !close || Self.addConnectionClose(to: built),
                sb_mhd_queue_response(connection, UInt32(status), built) == 1
            {
                return .YES
            }
        }
        return queue(.json(status: status, body), on: connection, closeConnection: close)
    }

    /// Adds `Content-Type: application/json; charset=utf-8` from its constant C strings.
    private static func addJSONContentType(to response: OpaquePointer) -> Bool {
        let value = UnsafeRawPointer(HTTPResponse.jsonContentTypeText.utf8Start).assumingMemoryBound(to: CChar.self)
        return sb_mhd_add_response_header(response, "Content-Type", value) == 1
    }

    /// The calling worker thread's body buffer, made on its first direct answer (a buffer of
    /// its own when the thread cannot keep one).
    private func workerBodyBuffer() -> WorkerBodyBuffer {
        guard let bodyBufferKey else { return WorkerBodyBuffer() }
        if let kept = pthread_getspecific(bodyBufferKey) {
            return Unmanaged<WorkerBodyBuffer>.fromOpaque(kept).takeUnretainedValue()
        }
        let buffer = WorkerBodyBuffer()
        if pthread_setspecific(bodyBufferKey, Unmanaged.passRetained(buffer).toOpaque()) != 0 {
            Unmanaged.passUnretained(buffer).release()
        }
        return buffer
    }

    /// Whether the target the URI log callback saw as a C string is the whole target of the
    /// request line: MHD puts a NUL after the target and the version string right after it,
    /// so a NUL byte sent inside the target shows as a gap between the two.
    private static func targetIsWhole(_ assembler: HTTPRequestAssembler, _ version: UnsafePointer<CChar>?) -> Bool {
        guard let end = assembler.rawTargetEnd, let version, version.pointee != 0 else { return true }
        return UInt(bitPattern: version) == end + 1
    }

    /// The 503 for a request on a connection over the limits, unless it asks for a probe.
    private func overLimitRefusal(_ assembler: HTTPRequestAssembler) -> HTTPRefusal? {
        guard let connection = assembler.connection, connection.admission != .admitted else { return nil }
        if case .text(let path, _) = assembler.target, probePaths.contains(path) { return nil }
        return Self.overLimitRefusal(connection.admission)
    }

    /// Keeps a duplicate of the connection's socket: MHD closes its own after the answer, and
    /// the watchdog then closes the duplicate in stages, so that a client still sending the
    /// body reads the answer instead of a reset.
    private func keepForClosingInStages(_ connection: OpaquePointer, _ assembler: HTTPRequestAssembler) {
        guard let registered = assembler.connection, registered.socket >= 0 else { return }
        let duplicate = fcntl(registered.socket, F_DUPFD_CLOEXEC, 0)
        guard duplicate >= 0 else { return }
        let previous = registered.lingeringSocket.exchange(duplicate, ordering: .acquiringAndReleasing)
        if previous >= 0 { _ = close(previous) }
    }

    /// Requests that may take long (a reload builds a whole snapshot; admin writes persist
    /// with fsync or go to PostgreSQL): every method but GET and HEAD. Reads stay on the
    /// worker thread, which is the fast path.
    private static func runsOffWorker(_ request: HTTPRequest) -> Bool {
        request.method != "GET" && request.method != "HEAD"
    }

    /// Whether the client has shut down its sending side after the request (a half-close,
    /// RFC 9112 §9.6 allows it). libmicrohttpd closes such a connection when it resumes it,
    /// before the answer goes out, so its request is answered on the worker instead: a slow
    /// answer then holds the worker, which is better than a write carried out unanswered.
    private static func peerFinishedSending(_ assembler: HTTPRequestAssembler) -> Bool {
        guard let socket = assembler.connection?.socket, socket >= 0 else { return false }
        var byte: UInt8 = 0
        return recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0
    }

    /// Suspends the connection, runs the handler on another thread, then publishes the
    /// answer and resumes the connection; MHD calls the access handler again, which queues it.
    /// Once the daemon is stopping, the request is refused instead: a connection suspended
    /// then would outlive the daemon.
    private func handleOffWorker(
        _ request: HTTPRequest, connection: OpaquePointer, assembler: HTTPRequestAssembler
    ) -> MHD_Result {
        let request = SuspendedRequest(connection: connection, assembler: assembler, http: request)
        let isSuspended = suspended.withLock { state in
            guard !state.isStopping else { return false }
            MHD_suspend_connection(connection)
            state.requests[ObjectIdentifier(request)] = request
            return true
        }
        guard isSuspended else {
            return queue(Self.respond(to: Self.stoppingRefusal, with: refusalResponder), on: connection, closeConnection: true)
        }
        DispatchQueue.global().async { [self] in
            resume(request, with: handler(request.http))
        }
        return .YES
    }

    /// Hands `response` to the suspended `request` and resumes its connection, unless the
    /// stop has resumed it already.
    private func resume(_ request: SuspendedRequest, with response: HTTPResponse) {
        suspended.withLock { state in
            guard state.requests.removeValue(forKey: ObjectIdentifier(request)) != nil else { return }
            request.assembler.deferredResponse.withLock { $0 = response }
            MHD_resume_connection(request.connection)
        }
    }

    /// Resumes every suspended connection with a `503` (the daemon closes them as it stops)
    /// and suspends no more; their handlers' answers are dropped when they come.
    func resumeEverySuspendedRequest() {
        let refusal = Self.respond(to: Self.stoppingRefusal, with: refusalResponder)
        suspended.withLock { state in
            state.isStopping = true
            for request in state.requests.values {
                request.assembler.deferredResponse.withLock { $0 = refusal }
                MHD_resume_connection(request.connection)
            }
            state.requests.removeAll()
        }
    }

    /// The answer to a request that would run off MHD's threads while the daemon stops.
    private static let stoppingRefusal = HTTPRefusal(
        status: 503, code: "shutting_down", message: "the server is shutting down; retry on another instance")

    /// Queues `response`; if MHD refuses it, logs why and answers 500 instead.
    private func queue(_ response: HTTPResponse, on connection: OpaquePointer, closeConnection: Bool) -> MHD_Result {
        let close = closeConnection || isDraining.load(ordering: .relaxed)
        do {
            try enqueue(response, on: connection, closeConnection: close)
            return .YES
        } catch {
            logger.error("could not send the handler's response: \(error)", metadata: ["status": "\(response.status)"])
        }
        let fallback = refusalResponder(
            HTTPRefusal(status: 500, code: "internal_error", message: "the server built a response it cannot send"))
        do {
            try enqueue(fallback, on: connection, closeConnection: true)
            return .YES
        } catch {
            logger.error("could not send a 500 either, closing the connection: \(error)")
            return .NO
        }
    }

    /// Queues `response`: the MHD form kept in its reuse slot when there is one, else a new
    /// one (kept in the slot for next time when it has one).
    ///
    /// - Throws: ``HTTPServerError`` (`responseRejected`) naming what MHD refused.
    private func enqueue(_ response: HTTPResponse, on connection: OpaquePointer, closeConnection: Bool)
        throws(HTTPServerError)
    {
        // A response that closes the connection carries one more header: never the shared one.
        guard let slot = response.reuseSlot, !closeConnection else {
            let built = try build(response, closeConnection: closeConnection)
            defer { MHD_destroy_response(built) }
            try queue(built, status: response.status, on: connection)
            return
        }
        if let ready = slot.response {
            try queue(ready, status: response.status, on: connection)
            return
        }
        let built = try build(response, closeConnection: false)
        // The slot keeps this reference; if another thread filled it first, ours is dropped
        // after queueing.
        let kept = slot.keep(built)
        defer { if !kept { MHD_destroy_response(built) } }
        try queue(built, status: response.status, on: connection)
    }

    /// Queues an MHD response; MHD takes its own reference.
    private func queue(_ mhdResponse: OpaquePointer, status: Int, on connection: OpaquePointer) throws(HTTPServerError) {
        guard sb_mhd_queue_response(connection, UInt32(status), mhdResponse) == 1 else {
            throw HTTPServerError(
                .responseRejected, "libmicrohttpd refused to queue a \(status) response",
                context: "MHD_queue_response")
        }
    }

    /// Builds an MHD response (body copied) with `response`'s headers; the caller owns the
    /// reference returned.
    ///
    /// - Throws: ``HTTPServerError`` (`responseRejected`) naming what MHD refused.
    private func build(_ response: HTTPResponse, closeConnection: Bool) throws(HTTPServerError) -> OpaquePointer {
        guard (200...599).contains(response.status) else {
            throw HTTPServerError(
                .responseRejected, "status \(response.status) is not a final HTTP status",
                context: "HTTPResponse.status", fix: "use a status in 200...599")
        }
        guard let mhdResponse = Self.responseCopying(response.body) else {
            throw HTTPServerError(
                .responseRejected, "libmicrohttpd could not allocate a response of \(response.body.count) bytes",
                context: "MHD_create_response_from_buffer")
        }
        do {
            try addHeaders(of: response, to: mhdResponse, closeConnection: closeConnection)
        } catch {
            MHD_destroy_response(mhdResponse)
            throw error
        }
        return mhdResponse
    }

    /// A new MHD response with a copy of `body` (the caller owns the reference), or `nil` when
    /// libmicrohttpd cannot allocate it.
    private static func responseCopying(_ body: [UInt8]) -> OpaquePointer? {
        body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
    }

    /// Adds `Connection: close` to an MHD response.
    private static func addConnectionClose(to response: OpaquePointer) -> Bool {
        sb_mhd_add_response_header(response, "Connection", "close") == 1
    }

    /// Adds `response`'s headers (and `Connection: close` when asked) to an MHD response.
    private func addHeaders(of response: HTTPResponse, to mhdResponse: OpaquePointer, closeConnection: Bool)
        throws(HTTPServerError)
    {
        for header in response.headers {
            if HTTPRequest.fieldNamesEqual(header.name, "Content-Length")
                || HTTPRequest.fieldNamesEqual(header.name, "Transfer-Encoding")
            {
                continue  // MHD frames the body itself.
            }
            try Self.checkHeader(header)
            // `withCString` lends a native string's own bytes; passing the `String` itself
            // would copy each into a new array, two allocations per header per response.
            let added = header.name.withCString { name in
                header.value.withCString { value in sb_mhd_add_response_header(mhdResponse, name, value) }
            }
            guard added == 1 else {
                throw HTTPServerError(
                    .responseRejected, "libmicrohttpd refused the header \"\(header.name)\"",
                    context: "MHD_add_response_header", fix: "send a valid header name and value")
            }
        }
        if closeConnection, !Self.addConnectionClose(to: mhdResponse) {
            throw HTTPServerError(
                .responseRejected, "libmicrohttpd refused \"Connection: close\"", context: "MHD_add_response_header")
        }
    }

    /// A header name must be a token and a value must not contain CR, LF or NUL (a NUL would
    /// silently cut the C string; CR/LF would split the header).
    private static func checkHeader(_ header: HTTPResponse.Header) throws(HTTPServerError) {
        guard !header.name.isEmpty, allBytes(of: header.name, satisfy: HTTPToken.isTokenByte) else {
            throw HTTPServerError(
                .responseRejected, "the header name \"\(header.name)\" is not an HTTP token",
                context: "HTTPResponse.headers", fix: "use letters, digits and -")
        }
        guard allBytes(of: header.value, satisfy: { $0 != 0 && $0 != 10 && $0 != 13 }) else {
            throw HTTPServerError(
                .responseRejected, "the value of header \"\(header.name)\" contains CR, LF or NUL",
                context: "HTTPResponse.headers", fix: "remove control characters from the value")
        }
    }

    /// Whether every UTF-8 byte of `text` passes `test`: a loop over the string's contiguous
    /// storage when it has one, because every header of every response is checked.
    private static func allBytes(of text: String, satisfy test: (UInt8) -> Bool) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(test) } ?? text.utf8.allSatisfy(test)
    }

    /// The peer's numeric IP address.
    private func remoteAddress(of connection: OpaquePointer) -> String? {
        guard let address = sb_mhd_connection_client_address(connection) else { return nil }
        let capacity = Int(INET6_ADDRSTRLEN) + 1
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { text -> String? in
            guard let buffer = text.baseAddress else { return nil }
            let converted: UnsafePointer<CChar>?
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                converted = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                    var raw = ipv4.pointee.sin_addr
                    return inet_ntop(AF_INET, &raw, buffer, socklen_t(capacity))
                }
            case AF_INET6:
                converted = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                    var raw = ipv6.pointee.sin6_addr
                    return inet_ntop(AF_INET6, &raw, buffer, socklen_t(capacity))
                }
            default:
                return nil
            }
            return converted.map { String(cString: $0) }
        }
    }

    /// A diagnostic from libmicrohttpd itself.
    fileprivate func libraryLogged(_ message: String) {
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

// MARK: - C callbacks (top-level functions, no captures)

/// `MHD_AccessHandlerCallback`.
private func microHTTPDaemonAccessHandler(
    _ cls: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?,
    _ version: UnsafePointer<CChar>?,
    _ uploadData: UnsafePointer<CChar>?,
    _ uploadSize: UnsafeMutablePointer<Int>?,
    _ slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let uploadSize, let slot else { return .NO }
    let context = Unmanaged<MicroHTTPDaemonContext>.fromOpaque(cls).takeUnretainedValue()
    return context.handle(
        connection: connection, method: method, version: version, uploadData: uploadData, uploadSize: uploadSize,
        slot: slot)
}

/// The destructor of `MicroHTTPDaemonContext.bodyBufferKey`: a worker thread has ended.
private func microHTTPDaemonReleaseBodyBuffer(_ buffer: UnsafeMutableRawPointer?) {
    guard let buffer else { return }
    Unmanaged<WorkerBodyBuffer>.fromOpaque(buffer).release()
}

/// `MHD_OPTION_UNESCAPE_CALLBACK`: leaves the text as it is (its length is unchanged).
private func microHTTPDaemonKeepEscaped(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ text: UnsafeMutablePointer<CChar>?
) -> Int {
    text.map { strlen($0) } ?? 0
}

/// `MHD_OPTION_URI_LOG_CALLBACK`: called once per request with the raw target (path and
/// query, still percent-encoded), before MHD splits and decodes it. Its result becomes
/// `*con_cls`.
private func microHTTPDaemonRequestStarted(
    _ cls: UnsafeMutableRawPointer?,
    _ uri: UnsafePointer<CChar>?,
    _ connection: OpaquePointer?
) -> UnsafeMutableRawPointer? {
    guard let cls else { return nil }
    return Unmanaged<MicroHTTPDaemonContext>.fromOpaque(cls).takeUnretainedValue().beginRequest(
        rawTarget: uri, connection: connection)
}

/// `MHD_NotifyConnectionCallback` (`MHD_OPTION_NOTIFY_CONNECTION`).
private func microHTTPDaemonConnectionChanged(
    _ cls: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ change: MHD_ConnectionNotificationCode
) {
    guard let cls, let connection, let socketContext else { return }
    let context = Unmanaged<MicroHTTPDaemonContext>.fromOpaque(cls).takeUnretainedValue()
    switch change {
    case .CONNECTION_NOTIFY_STARTED: context.connectionOpened(connection, context: socketContext)
    case .CONNECTION_NOTIFY_CLOSED: context.connectionClosed(socketContext)
    default: break
    }
}

/// `MHD_OPTION_NOTIFY_COMPLETED`.
private func microHTTPDaemonRequestCompleted(
    _ cls: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ reason: MHD_RequestTerminationCode
) {
    guard let cls, let slot else { return }
    Unmanaged<MicroHTTPDaemonContext>.fromOpaque(cls).takeUnretainedValue().endRequest(slot)
}

/// `MHD_KeyValueIteratorN` for `MHD_get_connection_values_n`: appends one header field, its
/// value without the trailing spaces and tabs libmicrohttpd leaves on it (they are not part of
/// a field value, RFC 9110 §5.5). `Transfer-Encoding` keeps them: libmicrohttpd frames the body
/// by the value as it left it, and the framing check must see what it sees.
///
/// It also notes, in the assembler's ``HTTPRequestAssembler/untrustedHead``, a head whose
/// framing libmicrohttpd may have read differently from the client or a proxy before us
/// (request smuggling, RFC 9112 §5 and §11.2); the checks run cheapest first, since this runs
/// for every field of every request.
private func microHTTPDaemonCollectHeader(
    _ cls: UnsafeMutableRawPointer?,
    _ kind: MHD_ValueKind,
    _ key: UnsafePointer<CChar>?,
    _ keySize: Int,
    _ value: UnsafePointer<CChar>?,
    _ valueSize: Int
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let assembler = Unmanaged<HTTPRequestAssembler>.fromOpaque(cls).takeUnretainedValue()
    let keyAddress = UInt(bitPattern: key)
    if let expected = assembler.nextFieldAddress {
        assembler.nextFieldAddress = nil
        // The bytes after the framing field's value are not this field's line: they were
        // cut off by a NUL byte.
        if keyAddress != expected { assembler.untrustedHead = .nulInFramingField }
    }
    // libmicrohttpd joins an obs-fold line to the field *name*, which it moves to new memory
    // past the read buffer, while the value stays in the line: only a folded field has its
    // value before its name (measured with 0.9.75; "Content-Length:\r\n 60" arrives as the
    // name "Content-Length60" and an empty value).
    if let value, UInt(bitPattern: value) < keyAddress { assembler.untrustedHead = .obsFold }
    let nameBytes = UnsafeRawBufferPointer(start: key, count: keySize)
    // Whitespace before the colon stays in the name, so the field is not found by its name.
    if !HTTPToken.isToken(nameBytes) { assembler.untrustedHead = .nameNotToken }
    let isTransferEncoding = keySize == 17 && HTTPHeaderFields.name(nameBytes, is: "Transfer-Encoding")
    if let value, isTransferEncoding || (keySize == 14 && HTTPHeaderFields.name(nameBytes, is: "Content-Length")),
        value[valueSize + 1] != 0
    {
        // libmicrohttpd ends the value at its first NUL. Past that NUL (which ends every value)
        // comes another NUL (the LF of CRLF), or the next field's name (a line ending in a bare
        // LF), or the rest of a value that had a NUL in it.
        assembler.nextFieldAddress = UInt(bitPattern: value) + UInt(valueSize) + 1
    }
    var valueBytes = UnsafeRawBufferPointer(start: value, count: value == nil ? 0 : valueSize)
    if !isTransferEncoding {
        var count = valueBytes.count
        while count > 0, valueBytes[count - 1] == UInt8(ascii: " ") || valueBytes[count - 1] == UInt8(ascii: "\t") {
            count -= 1
        }
        valueBytes = UnsafeRawBufferPointer(rebasing: valueBytes[..<count])
    }
    assembler.addField(name: nameBytes, value: valueBytes)
    return .YES
}

/// `MHD_LogCallback` (`MHD_OPTION_EXTERNAL_LOGGER`): formats MHD's message into the logger.
private func microHTTPDaemonLog(
    _ cls: UnsafeMutableRawPointer?,
    _ format: UnsafePointer<CChar>?,
    _ arguments: CVaListPointer?
) {
    guard let cls, let format, let arguments else { return }
    var buffer = [CChar](repeating: 0, count: 1024)
    let written = vsnprintf(&buffer, buffer.count, format, arguments)
    guard written >= 0 else { return }
    var message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    while message.last?.isNewline == true { message.removeLast() }
    Unmanaged<MicroHTTPDaemonContext>.fromOpaque(cls).takeUnretainedValue().libraryLogged(message)
}

// MARK: - Reused responses

/// Where the server keeps the libmicrohttpd form of a response that is sent many times (see
/// ``HTTPResponse/reuseSlot``): built on the first send, then queued again as it is — MHD
/// responses are reference counted and may be queued on many connections at once. The slot
/// holds one reference, dropped when the slot goes (with the cache entry that owns it); MHD
/// frees the response once the last connection sending it is done.
package final class ResponseReuseSlot: Sendable {
    /// The `struct MHD_Response *`, as a bit pattern; 0 while none is kept.
    private let pointer = Atomic<UInt>(0)

    package init() {}

    deinit {
        let raw = pointer.load(ordering: .acquiring)
        if raw != 0, let response = OpaquePointer(bitPattern: raw) { MHD_destroy_response(response) }
    }

    /// The kept response, if any.
    fileprivate var response: OpaquePointer? {
        OpaquePointer(bitPattern: pointer.load(ordering: .acquiring))
    }

    /// Keeps `response` (the slot then owns that reference) unless one is kept already.
    /// - Returns: whether it was kept.
    fileprivate func keep(_ response: OpaquePointer) -> Bool {
        pointer.compareExchange(
            expected: 0, desired: UInt(bitPattern: response), successOrdering: .acquiringAndReleasing,
            failureOrdering: .acquiring
        ).exchanged
    }
}

/// A worker thread's body buffer for direct answers: only its own thread touches it, so its
/// storage is reused from request to request without a lock.
private final class WorkerBodyBuffer {
    var bytes: [UInt8] = []
}

/// A suspended connection and its request, handed to the thread that answers it. MHD keeps
/// both alive while the connection is suspended (the request completes only after the
/// resume), and the answer crosses threads through the assembler's mutex.
private final class SuspendedRequest: @unchecked Sendable {
    let connection: OpaquePointer
    let assembler: HTTPRequestAssembler
    let http: HTTPRequest

    init(connection: OpaquePointer, assembler: HTTPRequestAssembler, http: HTTPRequest) {
        self.connection = connection
        self.assembler = assembler
        self.http = http
    }
}
