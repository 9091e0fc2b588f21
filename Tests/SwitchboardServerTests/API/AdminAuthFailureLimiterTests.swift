import Synchronization
import Testing

@testable import SwitchboardServer

/// The per-address count of wrong admin tokens, on a clock the test moves.
@Suite("Admin auth failure limiter")
struct AdminAuthFailureLimiterTests {
    final class FakeClock: Sendable {
        private let seconds = Mutex(1_000.0)
        var now: Double { seconds.withLock { $0 } }
        func advance(_ delta: Double) { seconds.withLock { $0 += delta } }
    }

    @Test("ten failures block the address for the rest of its minute; other addresses are not affected")
    func blocksOneAddress() {
        let clock = FakeClock()
        let limiter = AdminAuthFailureLimiter(now: { clock.now })
        for _ in 1...9 { limiter.recordFailure(address: "10.0.0.1") }
        #expect(limiter.retryAfter(address: "10.0.0.1") == nil)
        clock.advance(20)
        limiter.recordFailure(address: "10.0.0.1")
        #expect(limiter.retryAfter(address: "10.0.0.1") == 40)
        #expect(limiter.retryAfter(address: "10.0.0.2") == nil)
        clock.advance(39.5)
        #expect(limiter.retryAfter(address: "10.0.0.1") == 1)
        clock.advance(0.5)
        #expect(limiter.retryAfter(address: "10.0.0.1") == nil)
        // A new window starts from the next failure.
        limiter.recordFailure(address: "10.0.0.1")
        #expect(limiter.retryAfter(address: "10.0.0.1") == nil)
    }

    @Test("failures spread over more than a minute never block")
    func slowFailuresDoNotBlock() {
        let clock = FakeClock()
        let limiter = AdminAuthFailureLimiter(now: { clock.now })
        for _ in 1...30 {
            limiter.recordFailure(address: "10.0.0.1")
            clock.advance(7)
            #expect(limiter.retryAfter(address: "10.0.0.1") == nil)
        }
    }

    @Test("a flood of distinct addresses keeps the table bounded, and a blocked address stays blocked while others expire")
    func boundedMemory() {
        let clock = FakeClock()
        let limiter = AdminAuthFailureLimiter(capacity: 64, now: { clock.now })
        for _ in 1...10 { limiter.recordFailure(address: "attacker") }
        clock.advance(61)
        for _ in 1...10 { limiter.recordFailure(address: "attacker") }
        clock.advance(1)
        for index in 0..<10_000 {
            limiter.recordFailure(address: "flood-\(index)")
            #expect(limiter.followedAddresses <= 64)
        }
        #expect(limiter.followedAddresses == 64)
    }
}
