import Dispatch
import Testing

/// Runs each test of a suite on a task executor of its own, off Swift's cooperative pool.
///
/// Every suite that blocks a thread needs it: on sockets (``HTTPTestClient`` is
/// synchronous), on server shutdowns, on subprocesses (`waitUntilExit`) or on sleeps. On the
/// cooperative pool (one thread per core: two here) a blocked test starves every other
/// suite's tasks for as long as it blocks; a test that waits with a deadline elsewhere then
/// fails for no fault of its own (CI saw a 5 s wait overrun this way). A test keeps its task
/// (so `#expect` and task-locals work); only the threads it runs on change.
///
/// ```swift
/// @Suite("Admin rules over loopback", .blockingIO)
/// ```
package struct BlockingIOTrait: SuiteTrait, TestTrait, TestScoping {
    package var isRecursive: Bool { true }

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else { return try await function() }
        try await withTaskExecutorPreference(DispatchQueueTaskExecutor(label: "switchboard.tests.\(test.name)")) {
            try await function()
        }
    }
}

extension Trait where Self == BlockingIOTrait {
    /// See ``BlockingIOTrait``.
    package static var blockingIO: Self { Self() }
}

/// A task executor on a serial dispatch queue, whose threads are not the cooperative pool's.
package final class DispatchQueueTaskExecutor: TaskExecutor {
    private let queue: DispatchQueue

    package init(label: String) {
        queue = DispatchQueue(label: label)
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
