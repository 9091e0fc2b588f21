import Foundation
import SwitchboardHTTP
import SwitchboardTestSupport
import Synchronization
import Testing

/// The executor that runs blocking work: bounded (a full queue refuses at once), in order, and
/// drained by its shutdown.
@Suite("Blocking executor", .blockingIO)
struct BlockingExecutorTests {
    /// A gate the jobs of a test wait at until it opens.
    final class Gate: Sendable {
        private let open = DispatchSemaphore(value: 0)
        let entered = DispatchSemaphore(value: 0)

        /// Called by a job: says it runs, then waits for ``release(_:)``.
        func pass() {
            entered.signal()
            open.wait()
        }

        func release(_ count: Int) {
            for _ in 0..<count { open.signal() }
        }
    }

    /// The calling thread's name.
    static func threadName() -> String {
        Thread.current.name ?? ""
    }

    @Test("a job runs on one of its threads, and perform gives its result back")
    func runsJobs() async throws {
        let executor = BlockingExecutor(name: "test.runs", threads: 2, queueLimit: 4)
        let name = try await executor.perform { BlockingExecutorTests.threadName() }
        #expect(name.hasPrefix("test.runs-"))
        #expect(try await executor.perform { 6 * 7 } == 42)
        await executor.shutdown()
    }

    @Test("with every thread busy and the queue full, the next job is refused at once")
    func fullQueueRefusesFast() async throws {
        let executor = BlockingExecutor(name: "test.full", threads: 1, queueLimit: 2)
        let gate = Gate()
        let ran = Atomic<Int>(0)
        // One job holds the thread; two wait in the queue.
        try executor.submit {
            gate.pass()
            ran.add(1, ordering: .relaxed)
        }
        try #require(gate.entered.wait(timeout: .now() + 30) == .success)
        for _ in 0..<2 { try executor.submit { ran.add(1, ordering: .relaxed) } }
        #expect(executor.queuedCount == 2)
        let clock = ContinuousClock()
        let started = clock.now
        #expect(throws: BlockingExecutor.Refusal.full) { try executor.submit { ran.add(100, ordering: .relaxed) } }
        // Refused without waiting for a slot: far below the time the held job takes.
        #expect(clock.now - started < .seconds(1))
        gate.release(1)
        await executor.shutdown()
        #expect(ran.load(ordering: .relaxed) == 3)
    }

    @Test("shutdown runs every job already queued, then refuses new ones")
    func shutdownDrains() async throws {
        let executor = BlockingExecutor(name: "test.drain", threads: 2, queueLimit: 64)
        let gate = Gate()
        let ran = Mutex<[Int]>([])
        for index in 0..<2 {
            try executor.submit {
                gate.pass()
                ran.withLock { $0.append(index) }
            }
        }
        for _ in 0..<2 { try #require(gate.entered.wait(timeout: .now() + 30) == .success) }
        for index in 2..<40 { try executor.submit { ran.withLock { $0.append(index) } } }
        let shutdown = Task { await executor.shutdown() }
        // Once the shutdown has begun (the task may take a while to start on a loaded machine)
        // nothing more is taken; what was taken before it still runs.
        var index = 40
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(30))
        var refused = false
        while !refused, clock.now < deadline {
            do throws(BlockingExecutor.Refusal) {
                let taken = index
                try executor.submit { ran.withLock { $0.append(taken) } }
                index += 1
                try? await Task.sleep(for: .milliseconds(1))
            } catch {
                // Full while the shutdown task waits for a thread of the pool: wait on.
                guard error == .shutDown else {
                    try? await Task.sleep(for: .milliseconds(1))
                    continue
                }
                refused = true
            }
        }
        #expect(refused)
        gate.release(2)
        await shutdown.value
        #expect(ran.withLock { $0.sorted() } == Array(0..<index))
        #expect(executor.queuedCount == 0)
        await executor.shutdown()  // again: returns at once
    }
}
