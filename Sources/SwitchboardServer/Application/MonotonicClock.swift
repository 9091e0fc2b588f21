#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The monotonic clock in seconds, read straight from `clock_gettime`: `ContinuousClock`'s
/// `Duration` takes a 128-bit multiply to give its seconds back, which costs more than the rest
/// of the timing of a request.
package enum MonotonicClock {
    /// Seconds since an arbitrary, fixed point; never goes back.
    package static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
    }
}
