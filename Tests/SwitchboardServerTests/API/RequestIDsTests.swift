import Foundation
import SwitchboardHTTP
import Testing

@testable import SwitchboardServer

/// The ids made for requests that bring none: each thread counts through a block of its own.
@Suite("Request ids made per thread")
struct RequestIDsTests {
    @Test("ids made on several threads, past the end of their blocks, are all different and well-formed")
    func uniqueAcrossThreadsAndBlocks() {
        let ids = RequestIDs(prefix: 0xABC123)
        let perThread = Int(RequestIDs.blockSize) + 100
        let made = (0..<3).map { _ in Locked([String]()) }
        let finished = DispatchGroup()
        for index in 0..<3 {
            finished.enter()
            // Threads of their own: each gets its own block.
            Thread.detachNewThread {
                made[index].set((0..<perThread).map { _ in ids.next() })
                finished.leave()
            }
        }
        finished.wait()
        let all = made.flatMap { $0.value }
        #expect(all.count == 3 * perThread)
        #expect(Set(all).count == all.count)
        #expect(all.allSatisfy { $0.utf8.count == RequestIDs.length && $0.hasPrefix("abc123") })
        #expect(all.allSatisfy { $0.allSatisfy { "0123456789abcdef".contains($0) } })
    }

    @Test("an id is the prefix, then the count, in 15 lowercase hex digits")
    func format() {
        let ids = RequestIDs(prefix: 0x1AB_C0FFEE)
        let made = (0..<40).map { _ in ids.next() }
        #expect(made == (0..<40).map { "c0ffee" + String(repeating: "0", count: 9 - String($0, radix: 16).count) + String($0, radix: 16) })
        #expect(RequestIDs(prefix: 0).next() == "000000000000000")
    }

    @Test("a request's sane id is kept, else a new one is made")
    func givenOrMade() {
        let ids = RequestIDs(prefix: 1)
        let given = HTTPRequest(method: "GET", path: "/", headers: [("x-request-id", "abc-1")])
        #expect(ids.id(for: given) == "abc-1")
        let insane = HTTPRequest(method: "GET", path: "/", headers: [("X-Request-Id", "a;b")])
        #expect(ids.id(for: insane).hasPrefix("000001"))
        #expect(ids.id(for: HTTPRequest(method: "GET", path: "/")).utf8.count == RequestIDs.length)
    }
}

/// A value one thread writes and the test reads after the threads have finished.
private final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }

    func set(_ value: Value) { lock.withLock { stored = value } }
}
