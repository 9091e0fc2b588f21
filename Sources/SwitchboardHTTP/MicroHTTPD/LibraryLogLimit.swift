/// How many of libmicrohttpd's messages reach the log: the first `burst` of each `window`,
/// then, with the next message logged, how many were left out. The library writes one for each
/// malformed request or refused connection, so without a limit any client could grow the log
/// at will.
struct LibraryLogLimit: Sendable {
    /// What to do with one message.
    enum Decision: Equatable {
        /// Log it, after saying how many messages were left out before it (0: none).
        case log(leftOutBefore: Int)
        /// Leave it out.
        case leaveOut
    }

    /// Messages logged per window.
    let burst: Int
    /// The length of a window.
    let window: Duration
    private var windowStart: ContinuousClock.Instant?
    private var loggedInWindow = 0
    private var leftOut = 0

    init(burst: Int, window: Duration) {
        self.burst = burst
        self.window = window
    }

    /// Counts a message that came at `now`.
    mutating func admit(at now: ContinuousClock.Instant) -> Decision {
        if let windowStart, now - windowStart < window {
            guard loggedInWindow < burst else {
                leftOut += 1
                return .leaveOut
            }
            loggedInWindow += 1
            return .log(leftOutBefore: 0)
        }
        windowStart = now
        loggedInWindow = 1
        defer { leftOut = 0 }
        return .log(leftOutBefore: leftOut)
    }
}
