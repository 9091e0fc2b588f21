import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One thread that does what libmicrohttpd 0.9.75 cannot do by itself (design.md §7):
///
/// - **Request deadlines.** libmicrohttpd only times out silence; a client trickling one
///   byte a second is never closed. Four times a second the watchdog takes over the
///   connections of ``ConnectionRegistry`` whose deadline has passed, writes them a short
///   final answer (`408`, or `503` for a connection over the limits) and shuts their socket
///   down; libmicrohttpd then sees the end of the stream and closes the connection itself.
///   The answer is written only by whoever wins the connection's deadline (see
///   ``ConnectionRegistry/Connection/disarm()``), so it never interleaves with a response of
///   the handler.
/// - **Closing in stages** (RFC 9112 §9.6). After an early refusal (a `413` before the
///   body was read), libmicrohttpd sends the answer and closes its socket while the client
///   is still sending; the kernel then resets the connection and the client may never read
///   the answer. The daemon keeps a duplicate of such a socket; the watchdog half-closes it,
///   reads and discards what the client still sends for a bounded time and size, then
///   closes it, as nginx's lingering close does.
final class ConnectionWatchdog: Sendable {
    /// How long a socket closing in stages is read from before it is closed.
    static let lingerTime: Duration = .seconds(5)
    /// The most sockets closing in stages at once; further ones are closed at once.
    static let maxLingering = 256
    /// How often deadlines are checked (and the longest wait of the loop).
    private static let tickMilliseconds: Int32 = 250

    private struct Lingering {
        var socket: Int32
        var until: UInt64
        var discarded: Int
    }

    private let registry: ConnectionRegistry
    /// The complete bytes sent to a connection whose request did not arrive in time.
    private let timeoutAnswer: [UInt8]
    /// The complete bytes sent to a connection over the limits that sent no request line.
    private let overLimitAnswer: [UInt8]
    private let maxLingeringBytes: Int
    private let lingering = Mutex<[Lingering]>([])
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts the watchdog's thread.
    init(registry: ConnectionRegistry, timeoutAnswer: [UInt8], overLimitAnswer: [UInt8], maxLingeringBytes: Int) {
        self.registry = registry
        self.timeoutAnswer = timeoutAnswer
        self.overLimitAnswer = overLimitAnswer
        self.maxLingeringBytes = maxLingeringBytes
        let thread = Thread { [self] in run() }
        thread.name = "switchboard-http-watchdog"
        thread.start()
    }

    /// Stops the thread and closes every socket still closing in stages. Idempotent.
    func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        finished.wait()
        for entry in lingering.withLock({ state in
            defer { state = [] }; return state
        }) {
            _ = close(entry.socket)
        }
    }

    /// Takes over `socket` (a duplicate the caller owns) for a close in stages: half-closes it
    /// and discards what arrives until the client closes, ``lingerTime`` has passed, or the
    /// discard allowance is used up.
    func closeInStages(_ socket: Int32) {
        shutdownSocket(socket, writing: true)
        let accepted = lingering.withLock { state -> Bool in
            guard !stopping.load(ordering: .relaxed), state.count < Self.maxLingering else { return false }
            state.append(Lingering(socket: socket, until: ConnectionRegistry.time(after: Self.lingerTime), discarded: 0))
            return true
        }
        if !accepted { _ = close(socket) }
    }

    private func run() {
        var scratch = [UInt8](repeating: 0, count: 64 * 1024)
        while !stopping.load(ordering: .acquiring) {
            drainLingering(scratch: &scratch)
            registry.expire(now: ConnectionRegistry.now()) { connection in
                let answer = connection.admission == .admitted ? timeoutAnswer : overLimitAnswer
                // Non-blocking and best effort: a client that does not read gets no answer.
                answer.withUnsafeBytes { bytes in
                    _ = send(connection.socket, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
                }
                shutdownSocket(connection.socket, writing: false)
            }
        }
        finished.signal()
    }

    /// Waits up to one tick for lingering sockets to become readable, then discards what
    /// they have; closes those that are done.
    private func drainLingering(scratch: inout [UInt8]) {
        var descriptors = lingering.withLock { state in
            state.map { pollfd(fd: $0.socket, events: Int16(POLLIN), revents: 0) }
        }
        if descriptors.isEmpty {
            _ = poll(nil, 0, Self.tickMilliseconds)
            return
        }
        _ = poll(&descriptors, nfds_t(descriptors.count), Self.tickMilliseconds)
        var received: [Int32: Int] = [:]
        var done: Set<Int32> = []
        for descriptor in descriptors where descriptor.revents != 0 {
            var total = 0
            while true {
                let count = scratch.withUnsafeMutableBytes {
                    recv(descriptor.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
                }
                if count > 0 {
                    total += count
                    if total > maxLingeringBytes { break }
                    continue
                }
                if count < 0, errno == EINTR { continue }
                if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { break }
                done.insert(descriptor.fd)  // end of stream or an error
                break
            }
            received[descriptor.fd] = total
        }
        let now = ConnectionRegistry.now()
        let closing = lingering.withLock { state -> [Int32] in
            var closing: [Int32] = []
            state.removeAll { entry in
                let discarded = entry.discarded + received[entry.socket, default: 0]
                guard done.contains(entry.socket) || discarded > maxLingeringBytes || entry.until <= now else {
                    return false
                }
                closing.append(entry.socket)
                return true
            }
            for index in state.indices { state[index].discarded += received[state[index].socket, default: 0] }
            return closing
        }
        for socket in closing { _ = close(socket) }
    }

    private func shutdownSocket(_ socket: Int32, writing: Bool) {
        #if canImport(Glibc)
            _ = Glibc.shutdown(socket, Int32(writing ? SHUT_WR : SHUT_RDWR))
        #elseif canImport(Darwin)
            _ = Darwin.shutdown(socket, writing ? SHUT_WR : SHUT_RDWR)
        #endif
    }
}
