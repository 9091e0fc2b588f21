import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One call of MHD's access handler, after the C callback has found the request's assembler.
///
/// MHD calls it once when the headers are in (``headersArrived(_:on:isHTTP11:isHTTP10:targetIsWhole:)``),
/// once per piece of body, and once more when the request is complete
/// (``proceed(_:on:method:upload:)``). The answer is queued on that last call: a response
/// queued on the first call gets `Connection: close` from MHD 0.9.75 (measured: 23k instead
/// of 110k req/s), so only rejections that should close it are queued early.
extension MicroHTTPDaemonContext {
    /// The first call: the fields are collected. Refuses at once (closing the connection) what
    /// the head already shows to be refused, else goes on reading the body.
    ///
    /// - Parameters:
    ///   - isHTTP11: the request line said `HTTP/1.1`.
    ///   - isHTTP10: the request line said `HTTP/1.0`.
    ///   - targetIsWhole: the target the URI log callback saw is the whole target of the
    ///     request line (no NUL byte cut it short).
    func headersArrived(
        _ assembler: HTTPRequestAssembler, on connection: MicroHTTPDConnection, isHTTP11: Bool, isHTTP10: Bool,
        targetIsWhole: Bool
    ) -> Step {
        assembler.fieldsCollected()
        let refusal =
            assembler.headersComplete(isHTTP11: isHTTP11, isHTTP10: isHTTP10, targetIsWhole: targetIsWhole)
            ?? overLimitRefusal(assembler)
        guard let refusal else { return .proceed }
        guard assembler.connection?.disarm() ?? true else { return .closeConnection }
        if assembler.announcesBody { keepForClosingInStages(assembler) }
        return queue(Self.respond(to: refusal, with: refusalResponder), on: connection, closeConnection: true)
    }

    /// A later call: a piece of body (`upload`), or the end of the request, or the call after
    /// a resume that brings the answer computed off the worker.
    func proceed(
        _ assembler: HTTPRequestAssembler, on connection: MicroHTTPDConnection, method: UnsafePointer<CChar>?,
        upload: UnsafeRawBufferPointer?
    ) -> Step {
        if let upload {
            // After "100 Continue" for a request without a body, libmicrohttpd hands the bytes of
            // a pipelined request to the handler as upload data with a size of 0, in a state where
            // it refuses to queue a response. The request is complete only on the call without data.
            guard upload.count > 0 else { return .proceed }
            return bodyArrived(upload, for: assembler)
        }
        // Called again after a resume: the answer computed off the MHD thread is ready.
        if let deferred = assembler.deferredResponse.withLock({ $0.take() }) {
            return queue(deferred, on: connection, closeConnection: assembler.connection?.admission != .admitted)
        }
        // The whole request is in: its deadline no longer applies, unless it has passed and
        // the watchdog has answered already.
        guard assembler.connection?.disarm() ?? true else { return .closeConnection }
        let methodName = method.map { String(cString: $0) } ?? ""
        // The address the registry recorded when the connection opened: formatting it again
        // (inet_ntop, which formats with sprintf) would cost every request.
        let peer = if let registered = assembler.connection { registered.client } else { connection.clientAddress }
        switch assembler.finish(method: methodName, remoteAddress: peer) {
        case .failure(let refusal):
            return queue(Self.respond(to: refusal, with: refusalResponder), on: connection, closeConnection: true)
        case .success(let request):
            if offWorker.appliesTo(request), !Self.peerFinishedSending(assembler) {
                return answerOffWorker(request, on: connection, assembler: assembler)
            }
            // A probe answered over the connection limits does not keep its room.
            let overLimit = assembler.connection.map { $0.admission != .admitted } ?? false
            let buffer = bodyBuffers.current()
            // The response may share the buffer's storage while libmicrohttpd copies the body;
            // it is dropped on return, and the buffer is the storage's only owner again.
            let response = handler(request, &buffer.bytes)
            return queue(response, on: connection, closeConnection: overLimit)
        }
    }

    /// A piece of the body: stored, counted and thrown away, or the end of the connection.
    private func bodyArrived(_ upload: UnsafeRawBufferPointer, for assembler: HTTPRequestAssembler) -> Step {
        switch assembler.acceptBody(count: upload.count) {
        case .store:
            assembler.body.append(contentsOf: upload)
        case .discard:
            break
        case .dropConnection:
            logger.notice(
                "closing a connection whose request body exceeds the limit and the discard allowance",
                metadata: ["maxBodySize": "\(limits.maxBodySize)"])
            return .closeConnection
        }
        return .consumedUpload
    }

    /// Hands `request` to ``offWorker``; answers at once when it cannot run there.
    private func answerOffWorker(
        _ request: HTTPRequest, on connection: MicroHTTPDConnection, assembler: HTTPRequestAssembler
    ) -> Step {
        switch offWorker.run(request, on: connection, assembler: assembler) {
        case .suspended:
            return .proceed
        case .refused(let refusal, let closeConnection):
            return queue(Self.respond(to: refusal, with: refusalResponder), on: connection, closeConnection: closeConnection)
        }
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
    private func keepForClosingInStages(_ assembler: HTTPRequestAssembler) {
        guard let registered = assembler.connection, registered.socket >= 0 else { return }
        let duplicate = fcntl(registered.socket, F_DUPFD_CLOEXEC, 0)
        guard duplicate >= 0 else { return }
        let previous = registered.lingeringSocket.exchange(duplicate, ordering: .acquiringAndReleasing)
        if previous >= 0 { _ = close(previous) }
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
}
