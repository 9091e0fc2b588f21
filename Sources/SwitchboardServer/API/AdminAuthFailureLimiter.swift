import Synchronization

/// Slows down the guessing of admin tokens, per client address: after ``maxFailures`` wrong
/// tokens within ``windowSeconds`` of the first, the address gets `429 too_many_attempts` on
/// every admin path for the rest of that window, whatever token it sends (answering a right
/// token differently would tell the guesser it is right). Other addresses are not affected,
/// and a right token never counts.
///
/// Memory is bounded: at most ``maxAddresses`` addresses are followed; when a new one comes and
/// there is no room, the expired windows go first, then the oldest. Only admin paths consult
/// it, and a request with a right token takes one short lock.
package final class AdminAuthFailureLimiter: Sendable {
    /// Wrong tokens an address may send in one window.
    package static let maxFailures = 10
    /// How long a window lasts, from an address's first wrong token.
    package static let windowSeconds: Double = 60
    /// Addresses followed at once.
    package static let maxAddresses = 4096

    private struct Window {
        var start: Double
        var failures: Int
    }

    private let windows = Mutex<[String: Window]>([:])
    private let capacity: Int
    /// Seconds on a monotonic clock (injectable for tests).
    private let now: @Sendable () -> Double

    /// - Parameters:
    ///   - capacity: addresses followed at once.
    ///   - now: seconds on a monotonic clock.
    package init(capacity: Int = maxAddresses, now: @escaping @Sendable () -> Double = MonotonicClock.seconds) {
        self.capacity = max(1, capacity)
        self.now = now
    }

    /// Whole seconds until `address` may try again (at least 1), or `nil` when it may now.
    package func retryAfter(address: String) -> Int? {
        let time = now()
        return windows.withLock { windows in
            guard let window = windows[address], window.failures >= Self.maxFailures else { return nil }
            let remaining = window.start + Self.windowSeconds - time
            guard remaining > 0 else {
                windows[address] = nil
                return nil
            }
            return max(1, Int(remaining.rounded(.up)))
        }
    }

    /// Records a wrong token from `address`.
    package func recordFailure(address: String) {
        let time = now()
        windows.withLock { windows in
            if var window = windows[address], time - window.start < Self.windowSeconds {
                window.failures += 1
                windows[address] = window
                return
            }
            if windows[address] == nil, windows.count >= capacity {
                windows = windows.filter { time - $0.value.start < Self.windowSeconds }
                if windows.count >= capacity, let oldest = windows.min(by: { $0.value.start < $1.value.start })?.key {
                    windows[oldest] = nil
                }
            }
            windows[address] = Window(start: time, failures: 1)
        }
    }

    /// How many addresses are followed now (tests check the bound).
    package var followedAddresses: Int { windows.withLock { $0.count } }
}
