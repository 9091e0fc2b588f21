import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which connections are served and how long their requests may take to arrive
/// (design.md §7). The policy lives here; `MicroHTTPDaemon.swift` reports connections opening
/// and closing and `ConnectionWatchdog` acts on the deadlines.
///
/// libmicrohttpd accepts up to `HTTPServerConfiguration.libraryConnectionLimit` connections;
/// this registry decides which of them are within ``Limits-swift.struct/maxConnections``
/// (and the per-client limit). The others are still read, so that their request gets a clear
/// `503` rather than a hang in the listen backlog.
final class ConnectionRegistry: Sendable {
    /// Limits copied from the configuration.
    struct Limits: Sendable {
        var maxConnections: Int
        var maxConnectionsPerClient: Int
        /// Time a request has to arrive whole.
        var requestTimeout: Duration
        /// Idle time a keep-alive connection may spend before its next request line.
        var keepAliveIdle: Duration
        /// Time a connection over the limits has to send its request line before it is
        /// answered `503` and closed: it holds room meant for clients that are answered.
        var overLimitGrace: Duration
    }

    /// Whether a connection is within the limits.
    enum Admission: Sendable, Equatable {
        /// Served as usual.
        case admitted
        /// Over ``Limits-swift.struct/maxConnections``.
        case serverFull
        /// Over ``Limits-swift.struct/maxConnectionsPerClient`` for its client address.
        case clientFull
    }

    /// One open connection: what was decided when it opened, and the deadline of the request
    /// it is waiting for.
    final class Connection: Sendable {
        /// The connection's socket, owned by libmicrohttpd; valid while the connection is
        /// registered (it is unregistered before libmicrohttpd closes the socket).
        let socket: Int32
        /// The client's IP address (`nil` when unknown: not counted per client).
        let client: String?
        let admission: Admission
        /// Monotonic nanoseconds by which the awaited request must have arrived; `0` while
        /// no request is awaited (one is being answered), ``expired`` once the watchdog took
        /// the connection over.
        private let deadline: Atomic<UInt64>
        /// A duplicate of ``socket`` kept for a close in stages (RFC 9112 §9.6), or -1.
        let lingeringSocket = Atomic<Int32>(-1)
        /// Where a TLS listener's certificate comes from (`nil` for plain HTTP).
        private let servedCertificate: ServedCertificate?
        /// The certificate this connection's handshake was given, kept while the connection is
        /// open: GnuTLS uses it without a copy.
        private let presentedCertificate = Mutex<TLSCertificate?>(nil)

        static let expired = UInt64.max

        init(
            socket: Int32, client: String?, admission: Admission, deadline: UInt64,
            servedCertificate: ServedCertificate? = nil
        ) {
            self.socket = socket
            self.client = client
            self.admission = admission
            self.deadline = Atomic(deadline)
            self.servedCertificate = servedCertificate
        }

        /// The certificate for this connection's handshake: the one served now, kept with the
        /// connection. `nil` for plain HTTP.
        func certificateForHandshake() -> TLSCertificate? {
            guard let certificate = servedCertificate?.current else { return nil }
            presentedCertificate.withLock { $0 = certificate }
            return certificate
        }

        /// Sets the deadline of the next request, unless the watchdog has taken over.
        func arm(at time: UInt64) {
            var current = deadline.load(ordering: .relaxed)
            while current != Self.expired {
                let (exchanged, original) = deadline.weakCompareExchange(
                    expected: current, desired: time, ordering: .relaxed)
                if exchanged { return }
                current = original
            }
        }

        /// Moves the deadline earlier (never later, never from "none" to a time).
        func tighten(to time: UInt64) {
            var current = deadline.load(ordering: .relaxed)
            while current != 0, current != Self.expired, current > time {
                let (exchanged, original) = deadline.weakCompareExchange(
                    expected: current, desired: time, ordering: .relaxed)
                if exchanged { return }
                current = original
            }
        }

        /// The request has arrived: no deadline until the next one is awaited.
        ///
        /// - Returns: `false` when the watchdog got there first (it answered and is closing
        ///   the connection): nothing more may be sent on it.
        func disarm() -> Bool {
            deadline.exchange(0, ordering: .acquiringAndReleasing) != Self.expired
        }

        /// Takes the connection over when its deadline has passed.
        /// - Returns: whether it did (then the caller answers and closes).
        fileprivate func expireIfDue(now: UInt64) -> Bool {
            let current = deadline.load(ordering: .acquiring)
            guard current != 0, current != Self.expired, current <= now else { return false }
            return deadline.compareExchange(
                expected: current, desired: Self.expired, ordering: .acquiringAndReleasing
            ).exchanged
        }
    }

    private struct State {
        var open: [ObjectIdentifier: Connection] = [:]
        var admitted = 0
        var admittedPerClient: [String: Int] = [:]
    }

    let limits: Limits
    private let state = Mutex(State())

    init(limits: Limits) {
        self.limits = limits
    }

    /// Monotonic time in nanoseconds, to the resolution of the kernel's tick (a few
    /// milliseconds): deadlines are seconds away, and every request reads this clock twice, so
    /// the coarse clock's cheaper read is the right trade.
    static func now() -> UInt64 {
        var time = timespec()
        #if os(Linux)
            clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
        #else
            clock_gettime(CLOCK_MONOTONIC, &time)
        #endif
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// `now` plus `duration`, in the clock of ``now()``.
    static func time(after duration: Duration, from now: UInt64 = ConnectionRegistry.now()) -> UInt64 {
        now &+ nanoseconds(of: duration)
    }

    /// `duration` in whole nanoseconds (0 when negative): what ``time(after:from:)`` adds. The
    /// per-request deadlines take it once: `Duration`'s components cost a 128-bit multiply.
    static func nanoseconds(of duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) &* 1_000_000_000 &+ UInt64(max(0, attoseconds) / 1_000_000_000)
    }

    /// Connections open now, within the limits or not.
    var openCount: Int { state.withLock { $0.open.count } }

    /// A connection has opened: decides whether it is served and arms its first deadline.
    func open(socket: Int32, client: String?, servedCertificate: ServedCertificate? = nil) -> Connection {
        let now = Self.now()
        return state.withLock { state in
            let admission: Admission
            if state.admitted >= limits.maxConnections {
                admission = .serverFull
            } else if let client, state.admittedPerClient[client, default: 0] >= limits.maxConnectionsPerClient {
                admission = .clientFull
            } else {
                admission = .admitted
                state.admitted += 1
                if let client { state.admittedPerClient[client, default: 0] += 1 }
            }
            let grace = admission == .admitted ? limits.requestTimeout : limits.overLimitGrace
            let connection = Connection(
                socket: socket, client: client, admission: admission, deadline: Self.time(after: grace, from: now),
                servedCertificate: servedCertificate)
            state.open[ObjectIdentifier(connection)] = connection
            return connection
        }
    }

    /// A connection has closed (its socket is still open, and is closed right after).
    func close(_ connection: Connection) {
        state.withLock { state in
            guard state.open.removeValue(forKey: ObjectIdentifier(connection)) != nil else { return }
            guard connection.admission == .admitted else { return }
            state.admitted -= 1
            if let client = connection.client {
                let remaining = state.admittedPerClient[client, default: 1] - 1
                state.admittedPerClient[client] = remaining > 0 ? remaining : nil
            }
        }
    }

    /// Calls `body` for every connection whose deadline has passed, once per connection,
    /// while holding the registry's lock: the connection cannot close (and its socket number
    /// cannot be reused) while `body` runs, so `body` must be quick and must not block.
    func expire(now: UInt64, _ body: (Connection) -> Void) {
        state.withLock { state in
            for connection in state.open.values where connection.expireIfDue(now: now) {
                body(connection)
            }
        }
    }
}
