import Synchronization

/// The requests the application's ``OffWorkerPolicy`` runs off MHD's worker threads: each
/// one's connection is suspended, its handler runs on the policy's executor, and its answer is
/// published on its assembler before the connection is resumed; MHD then calls the access
/// handler again, which queues it.
///
/// Once the daemon stops, every connection still suspended is resumed with a `503` (MHD aborts
/// the process when it stops with one suspended) and none is suspended any more.
final class OffWorkerRequests: Sendable {
    /// What became of a request offered to ``run(_:on:assembler:)``.
    enum Outcome {
        /// Suspended: the answer comes with the resume.
        case suspended
        /// Not taken: answer `refusal` now (closing the connection when told).
        case refused(HTTPRefusal, closeConnection: Bool)
    }

    private let policy: OffWorkerPolicy?
    private let handler: HTTPServer.Handler
    /// Connections suspended while their request runs off MHD's threads, and whether the
    /// daemon is stopping (then none may be suspended any more). Each is resumed once, by
    /// whoever takes it out: its handler's job, or the stop.
    private let suspended = Mutex<(requests: [ObjectIdentifier: SuspendedRequest], isStopping: Bool)>(([:], false))

    init(policy: OffWorkerPolicy?, handler: @escaping HTTPServer.Handler) {
        self.policy = policy
        self.handler = handler
    }

    /// Whether `request` runs off the worker (the policy's choice; never without a policy).
    func appliesTo(_ request: HTTPRequest) -> Bool {
        policy?.appliesTo(request) ?? false
    }

    /// Suspends the connection and queues the handler's job on the executor; refuses the
    /// request instead when the daemon is stopping or the executor's queue is full.
    func run(_ request: HTTPRequest, on connection: MicroHTTPDConnection, assembler: HTTPRequestAssembler) -> Outcome {
        guard let executor = policy?.executor else { return .refused(Self.stoppingRefusal, closeConnection: true) }
        let suspendedRequest = SuspendedRequest(connection: connection, assembler: assembler, http: request)
        // Under the lock: the job resumes through the same lock, so it cannot resume the
        // connection before it is suspended and registered, even on a thread that runs it at once.
        return suspended.withLock { state -> Outcome in
            guard !state.isStopping else { return .refused(Self.stoppingRefusal, closeConnection: true) }
            do throws(BlockingExecutor.Refusal) {
                try executor.submit { [self] in
                    var body: [UInt8] = []
                    resume(suspendedRequest, with: handler(suspendedRequest.http, &body))
                }
            } catch {
                return error == .full
                    ? .refused(Self.busyRefusal, closeConnection: false)
                    : .refused(Self.stoppingRefusal, closeConnection: true)
            }
            connection.suspend()
            state.requests[ObjectIdentifier(suspendedRequest)] = suspendedRequest
            return .suspended
        }
    }

    /// Hands `response` to the suspended `request` and resumes its connection, unless the
    /// stop has resumed it already.
    private func resume(_ request: SuspendedRequest, with response: HTTPResponse) {
        suspended.withLock { state in
            guard state.requests.removeValue(forKey: ObjectIdentifier(request)) != nil else { return }
            request.assembler.deferredResponse.withLock { $0 = response }
            request.connection.resume()
        }
    }

    /// Resumes every suspended connection with a `503` (the daemon closes them as it stops)
    /// and suspends no more; their handlers' answers are dropped when they come.
    ///
    /// - Parameter responder: renders the refusal.
    func resumeEverySuspendedRequest(respondingWith responder: @Sendable (HTTPRefusal) -> HTTPResponse) {
        let refusal = MicroHTTPDaemonContext.respond(to: Self.stoppingRefusal, with: responder)
        suspended.withLock { state in
            state.isStopping = true
            for request in state.requests.values {
                request.assembler.deferredResponse.withLock { $0 = refusal }
                request.connection.resume()
            }
            state.requests.removeAll()
        }
    }

    /// The answer to a request that would run off MHD's threads while the daemon stops.
    static let stoppingRefusal = HTTPRefusal(
        status: 503, code: "shutting_down", message: "the server is shutting down; retry on another instance")

    /// The answer to a request that would run off MHD's threads while the executor's queue is
    /// full: at once, so that a frozen store never makes clients wait for a slot.
    static let busyRefusal = HTTPRefusal(
        status: 503, code: "server_busy", message: "too many requests are waiting to run; retry later",
        retryAfterSeconds: 1)
}

/// A suspended connection and its request, handed to the thread that answers it. MHD keeps
/// both alive while the connection is suspended (the request completes only after the
/// resume), and the answer crosses threads through the assembler's mutex.
private final class SuspendedRequest: @unchecked Sendable {
    let connection: MicroHTTPDConnection
    let assembler: HTTPRequestAssembler
    let http: HTTPRequest

    init(connection: MicroHTTPDConnection, assembler: HTTPRequestAssembler, http: HTTPRequest) {
        self.connection = connection
        self.assembler = assembler
        self.http = http
    }
}
