import Testing

@testable import SwitchboardHTTP

/// libmicrohttpd's messages are logged up to a burst per window, then counted.
struct LibraryLogLimitTests {
    @Test func aBurstPerWindowThenTheCountOfWhatWasLeftOut() {
        var limit = LibraryLogLimit(burst: 3, window: .seconds(10))
        let start = ContinuousClock.now
        let first = (0..<5).map { limit.admit(at: start + .seconds($0)) }
        #expect(first == [.log(leftOutBefore: 0), .log(leftOutBefore: 0), .log(leftOutBefore: 0), .leaveOut, .leaveOut])
        // The next window's first message says how many the last one left out, once.
        #expect(limit.admit(at: start + .seconds(10)) == .log(leftOutBefore: 2))
        #expect(limit.admit(at: start + .seconds(11)) == .log(leftOutBefore: 0))
        #expect(limit.admit(at: start + .seconds(40)) == .log(leftOutBefore: 0))
    }
}
