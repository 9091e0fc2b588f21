// The only Swift file that touches libmicrohttpd's pointers (STYLE #5): every `OpaquePointer`
// of the C boundary and every `Unmanaged` passed through libmicrohttpd is here, in the daemon's
// lifecycle, two typed wrappers (`MicroHTTPDConnection`, `MicroHTTPDResponse`) and the C
// callbacks. The policies live elsewhere: requests in `MicroHTTPDaemonContext+Requests.swift`,
// off-worker work in `OffWorkerRequests.swift`, responses in
// `MicroHTTPDaemonContext+Responses.swift`, the drain in `RequestDrain.swift`.
//
// The C callbacks are top-level functions (Swift 6.3.1 crashes converting a capturing closure
// to a C function pointer); they reach Swift objects through MHD's `void *` closures:
//
// - the daemon closure is a `MicroHTTPDaemonContext`, passed unretained (the
//   `MicroHTTPDaemon` owning it outlives `MHD_stop_daemon`);
// - the per-request closure (`*con_cls`) is an `HTTPRequestAssembler`, retained by the URI
//   log callback (which runs once per request, before MHD parses the target) and released
//   by the request-completed callback (which MHD calls for every request the URI log
//   callback saw: both set `client_aware` in 0.9.75);
// - the per-connection closure (`socket_context`) is a `ConnectionRegistry.Connection`,
//   retained when the connection-notify callback reports it open and released when it
//   reports it closed (before MHD closes the socket);
// - GnuTLS's certificate callback has no closure: it finds the connection through the
//   session's pointer (MHD sets it to the connection), and the certificate through the
//   connection's `socket_context`, which is set before the first handshake byte is read.

import CMicroHTTPD
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

        // Suspend/resume: the requests the application runs off the worker (reloads, admin
        // writes) leave MHD's threads, so a worker never stops serving its other connections
        // (design.md §6).
        var flags =
            MHD_USE_ITC.rawValue | MHD_USE_ERROR_LOG.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue
        switch configuration.threadingMode {
        case .pollThreadPool: flags |= MHD_USE_POLL.rawValue
        case .epollThreadPool: flags |= MHD_USE_EPOLL.rawValue
        case .threadPerConnection: flags |= MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_POLL.rawValue
        }
        if family == .ipv6 { flags |= MHD_USE_IPv6.rawValue }
        let usesTLS = configuration.tls != nil
        if usesTLS { flags |= MHD_USE_TLS.rawValue }

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
            SocketAddress.with(host: numericHost, port: port, family: family) { address in
                usesTLS
                    ? sb_mhd_start_tls_daemon(
                        flags, port, address, microHTTPDaemonAccessHandler, contextPointer, optionArray.baseAddress,
                        microHTTPDaemonPresentCertificate)
                    : sb_mhd_start_daemon(
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
    var inFlightRequests: Int { context.drain.inFlightCount }

    /// Stops accepting connections (`MHD_quiesce_daemon`) and makes the kernel refuse new
    /// ones (`shutdown(2)` on the listen socket); open connections are still served.
    ///
    /// From here on every response carries `Connection: close`, and the context's
    /// ``MicroHTTPDaemonContext/drain`` wakes its waiters when the last request ends.
    func stopAccepting() {
        context.drain.beginDraining()
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
        context.offWorker.resumeEverySuspendedRequest(respondingWith: context.refusalResponder)
        MHD_stop_daemon(daemon.raw)
        context.watchdog.stop()
        if let socket = quiescedListenSocket.withLock({ $0 }) {
            _ = close(socket)
        }
    }
}

// MARK: - Typed wrappers

/// A libmicrohttpd connection (`struct MHD_Connection *`), valid while MHD has it open (for a
/// suspended one, until it is resumed and its request completes).
struct MicroHTTPDConnection: @unchecked Sendable {
    fileprivate let raw: OpaquePointer

    /// The connection's socket.
    var socket: Int32 { Int32(sb_mhd_connection_socket(raw)) }

    /// The registry's record of the connection, kept in MHD's `socket_context`.
    var registered: ConnectionRegistry.Connection? {
        sb_mhd_connection_socket_context(raw).map {
            Unmanaged<ConnectionRegistry.Connection>.fromOpaque($0).takeUnretainedValue()
        }
    }

    /// The peer's numeric IP address.
    var clientAddress: String? {
        sb_mhd_connection_client_address(raw).flatMap(SocketAddress.numericHost)
    }

    /// Stops MHD from reading or writing the connection until ``resume()``.
    func suspend() { MHD_suspend_connection(raw) }

    /// Hands the connection back to MHD, which calls the access handler again.
    func resume() { MHD_resume_connection(raw) }

    /// Queues `response`; MHD takes its own reference. `false` when MHD refuses.
    func queue(_ response: MicroHTTPDResponse, status: Int) -> Bool {
        sb_mhd_queue_response(raw, UInt32(status), response.raw) == 1
    }
}

/// A libmicrohttpd response (`struct MHD_Response *`): the caller owns one reference, dropped
/// with ``release()``.
struct MicroHTTPDResponse {
    fileprivate let raw: OpaquePointer

    /// A response with a copy of `body`; `nil` when libmicrohttpd cannot allocate it.
    init?(copying body: [UInt8]) {
        let created = body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let created else { return nil }
        raw = created
    }

    /// Adds a header field (MHD copies both strings). `false` when MHD refuses it.
    func addHeader(name: String, value: String) -> Bool {
        // `withCString` lends a native string's own bytes; passing the `String` itself would
        // copy each into a new array, two allocations per header per response.
        name.withCString { name in value.withCString { value in sb_mhd_add_response_header(raw, name, value) } } == 1
    }

    /// Adds a header field from constant C strings, with nothing to copy or check on the Swift
    /// side. `false` when MHD refuses it.
    func addHeader(_ name: StaticString, _ value: StaticString) -> Bool {
        let cName = UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)
        let cValue = UnsafeRawPointer(value.utf8Start).assumingMemoryBound(to: CChar.self)
        return sb_mhd_add_response_header(raw, cName, cValue) == 1
    }

    /// Drops the caller's reference; MHD frees the response once no connection sends it.
    func release() { MHD_destroy_response(raw) }
}

// MARK: - C callbacks (top-level functions, no captures)

/// `MHD_AccessHandlerCallback`: finds the request's assembler and hands the call to the
/// context (`MicroHTTPDaemonContext+Requests.swift`).
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
    let wrapped = MicroHTTPDConnection(raw: connection)
    if slot.pointee == nil {
        // The URI log callback always runs first; this is only a safety net.
        let assembler = context.beginRequest(target: nil, on: wrapped)
        slot.pointee = Unmanaged.passRetained(assembler).toOpaque()
    }
    guard let opaque = slot.pointee else { return .NO }
    let assembler = Unmanaged<HTTPRequestAssembler>.fromOpaque(opaque).takeUnretainedValue()
    let step: MicroHTTPDaemonContext.Step
    if !assembler.hasStarted {
        MHD_get_connection_values_n(connection, .HEADER_KIND, microHTTPDaemonCollectHeader, opaque)
        let isHTTP11 = version.map { strcmp($0, "HTTP/1.1") == 0 } ?? false
        let isHTTP10 = !isHTTP11 && version.map { strcmp($0, "HTTP/1.0") == 0 } ?? false
        // MHD puts a NUL after the target and the version string right after it, so a NUL
        // byte sent inside the target shows as a gap between the two.
        let targetIsWhole =
            if let end = assembler.rawTargetEnd, let version, version.pointee != 0 {
                UInt(bitPattern: version) == end + 1
            } else {
                true
            }
        step = context.headersArrived(
            assembler, on: wrapped, isHTTP11: isHTTP11, isHTTP10: isHTTP10, targetIsWhole: targetIsWhole)
    } else {
        step = context.proceed(
            assembler, on: wrapped, method: method,
            upload: uploadData.map { UnsafeRawBufferPointer(start: $0, count: uploadSize.pointee) })
    }
    switch step {
    case .proceed: return .YES
    case .consumedUpload:
        uploadSize.pointee = 0
        return .YES
    case .closeConnection: return .NO
    }
}

/// `gnutls_certificate_retrieve_function2` (`MHD_OPTION_HTTPS_CERT_CALLBACK`): hands a
/// handshake the listener's current certificate and key. Returns 0, or -1 (the handshake
/// fails) when the connection is not known.
private func microHTTPDaemonPresentCertificate(
    _ session: OpaquePointer?,
    _ requestedAuthorities: UnsafePointer<gnutls_datum_t>?,
    _ requestedAuthorityCount: Int32,
    _ algorithms: UnsafePointer<gnutls_pk_algorithm_t>?,
    _ algorithmCount: Int32,
    _ chain: UnsafeMutablePointer<UnsafeMutablePointer<gnutls_pcert_st>?>?,
    _ chainLength: UnsafeMutablePointer<UInt32>?,
    _ key: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    guard let session, let chain, let chainLength, let key,
        let connection = sb_mhd_connection_of_tls_session(session),
        let certificate = MicroHTTPDConnection(raw: connection).registered?.certificateForHandshake()
    else { return -1 }
    certificate.present(chain: chain, length: chainLength, key: key)
    return 0
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
    let context = Unmanaged<MicroHTTPDaemonContext>.fromOpaque(cls).takeUnretainedValue()
    let target = uri.map { uri in
        uri.withMemoryRebound(to: UInt8.self, capacity: strlen(uri)) { UnsafeBufferPointer(start: $0, count: strlen(uri)) }
    }
    let assembler = context.beginRequest(target: target, on: connection.map(MicroHTTPDConnection.init))
    return Unmanaged.passRetained(assembler).toOpaque()
}

/// `MHD_NotifyConnectionCallback` (`MHD_OPTION_NOTIFY_CONNECTION`): keeps the registry's
/// record of an open connection in its `socket_context`.
private func microHTTPDaemonConnectionChanged(
    _ cls: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ change: MHD_ConnectionNotificationCode
) {
    guard let cls, let connection, let socketContext else { return }
    let context = Unmanaged<MicroHTTPDaemonContext>.fromOpaque(cls).takeUnretainedValue()
    switch change {
    case .CONNECTION_NOTIFY_STARTED:
        let registered = context.connectionOpened(MicroHTTPDConnection(raw: connection))
        socketContext.pointee = Unmanaged.passRetained(registered).toOpaque()
    case .CONNECTION_NOTIFY_CLOSED:
        guard let opaque = socketContext.pointee else { return }
        socketContext.pointee = nil
        context.connectionClosed(Unmanaged<ConnectionRegistry.Connection>.fromOpaque(opaque).takeRetainedValue())
    default:
        break
    }
}

/// `MHD_OPTION_NOTIFY_COMPLETED`: the request is over (answered, failed or the connection
/// closed); releases its assembler.
private func microHTTPDaemonRequestCompleted(
    _ cls: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ reason: MHD_RequestTerminationCode
) {
    guard let cls, let slot, let opaque = slot.pointee else { return }
    slot.pointee = nil
    let assembler = Unmanaged<HTTPRequestAssembler>.fromOpaque(opaque).takeRetainedValue()
    Unmanaged<MicroHTTPDaemonContext>.fromOpaque(cls).takeUnretainedValue().endRequest(assembler)
}

/// `MHD_KeyValueIteratorN` for `MHD_get_connection_values_n`: hands one header field, where
/// libmicrohttpd keeps it, to the assembler (`HTTPRequestAssembler+Fields.swift`).
private func microHTTPDaemonCollectHeader(
    _ cls: UnsafeMutableRawPointer?,
    _ kind: MHD_ValueKind,
    _ key: UnsafePointer<CChar>?,
    _ keySize: Int,
    _ value: UnsafePointer<CChar>?,
    _ valueSize: Int
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    Unmanaged<HTTPRequestAssembler>.fromOpaque(cls).takeUnretainedValue().collectField(
        name: UnsafeRawPointer(key), nameCount: keySize, value: value.map(UnsafeRawPointer.init), valueCount: valueSize)
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
