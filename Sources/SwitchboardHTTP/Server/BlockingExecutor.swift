import Foundation
import ServiceLifecycle

/// A small fixed pool of threads with a bounded queue, for work that blocks: an admin write
/// that persists with fsync or waits on PostgreSQL, a reload, a probe of a shared store.
///
/// The application owns one and runs it as a `Service`: when the service group shuts down
/// gracefully it stops taking jobs, runs the jobs already queued, and returns once its threads
/// have ended. A job offered while the queue is full is refused at once (``Refusal/full``), so
/// that a frozen store makes callers wait for a slot never, and answers `503` quickly instead.
///
/// ```swift
/// let executor = BlockingExecutor(name: "blocking", threads: 4, queueLimit: 64)
/// try executor.submit { persist(change) }                  // or Refusal.full / .shutDown
/// let reachable = try await executor.perform { (try? store.load()) != nil }
/// ```
///
/// The threads start with the executor: a server that answers before the service group runs
/// can use it at once.
package final class BlockingExecutor: Service, Sendable {
    /// Why a job was not taken.
    package enum Refusal: Error, Sendable, Equatable {
        /// ``queueLimit`` jobs are waiting already.
        case full
        /// The executor is shutting down or has shut down.
        case shutDown
    }

    /// A job.
    package typealias Job = @Sendable () -> Void

    /// The number of threads.
    package let threadCount: Int
    /// The most jobs that may wait for a thread.
    package let queueLimit: Int
    private let queue: JobQueue

    /// Starts `threads` threads named `name-1`, `name-2`, … (as `top -H` shows them: keep
    /// `name` short, only 15 bytes are kept).
    ///
    /// - Parameters:
    ///   - threads: at least 1.
    ///   - queueLimit: at least 1; jobs beyond it waiting are refused.
    package init(name: String, threads: Int, queueLimit: Int) {
        threadCount = max(1, threads)
        self.queueLimit = max(1, queueLimit)
        queue = JobQueue(limit: self.queueLimit, threads: threadCount)
        for index in 1...threadCount {
            // Linux keeps 15 bytes of a thread's name and refuses a longer one.
            let threadName = String(decoding: "\(name)-\(index)".utf8.prefix(15), as: UTF8.self)
            let thread = Thread { [queue] in
                // Named by the thread itself: on Linux a name given before the start is lost, and
                // the thread keeps its creator's.
                Thread.current.name = threadName
                queue.work()
            }
            thread.start()
        }
    }

    deinit {
        // Nobody can submit any more: let the threads run what is queued and end.
        queue.stopTaking()
    }

    /// Queues `job` to run on one of the threads.
    ///
    /// - Throws: ``Refusal/full`` when ``queueLimit`` jobs are waiting, ``Refusal/shutDown``
    ///   once ``shutdown()`` has begun. Either way `job` is not run.
    package func submit(_ job: @escaping Job) throws(Refusal) {
        try queue.push(job)
    }

    /// Runs `work` on one of the threads and returns its result, without blocking the caller's
    /// thread.
    ///
    /// - Throws: ``Refusal`` as ``submit(_:)`` does.
    package func perform<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async throws(Refusal) -> Result {
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Swift.Result<Result, Refusal>, Never>) in
            do throws(Refusal) {
                try queue.push { continuation.resume(returning: .success(work())) }
            } catch {
                continuation.resume(returning: .failure(error))
            }
        }
        return try outcome.get()
    }

    /// Jobs waiting for a thread now.
    package var queuedCount: Int { queue.queuedCount }

    /// Runs until the service group shuts down gracefully (or the task is cancelled), then
    /// shuts the executor down.
    package func run() async {
        try? await gracefulShutdown()
        await shutdown()
    }

    /// Stops taking jobs, lets the threads run every job already queued, and returns once they
    /// have ended. Calling it again waits for the same end.
    package func shutdown() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.stopTaking(whenEnded: continuation)
        }
    }
}

/// The executor's queue and its threads' loop. Every field is read and written under
/// ``condition``.
private final class JobQueue: @unchecked Sendable {
    private let condition = NSCondition()
    /// A ring of `limit` slots; ``head`` is the oldest job, ``count`` are waiting.
    private var slots: [BlockingExecutor.Job?]
    private var head = 0
    private var count = 0
    private var isTaking = true
    private var runningThreads: Int
    /// Who waits for the last thread to end.
    private var endWaiters: [CheckedContinuation<Void, Never>] = []

    init(limit: Int, threads: Int) {
        slots = Array(repeating: nil, count: limit)
        runningThreads = threads
    }

    var queuedCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return count
    }

    func push(_ job: @escaping BlockingExecutor.Job) throws(BlockingExecutor.Refusal) {
        condition.lock()
        defer { condition.unlock() }
        guard isTaking else { throw .shutDown }
        guard count < slots.count else { throw .full }
        slots[(head + count) % slots.count] = job
        count += 1
        condition.signal()
    }

    /// Takes no more jobs; `waiter`, if any, is resumed once every thread has ended.
    func stopTaking(whenEnded waiter: CheckedContinuation<Void, Never>? = nil) {
        condition.lock()
        isTaking = false
        let endedAlready = runningThreads == 0
        if let waiter, !endedAlready { endWaiters.append(waiter) }
        condition.broadcast()
        condition.unlock()
        if endedAlready { waiter?.resume() }
    }

    /// A thread's loop: runs jobs in order until the queue stops taking them and is empty.
    func work() {
        while let job = next() { job() }
    }

    /// The next job, waiting for one; `nil` when the thread should end (it is then counted out).
    private func next() -> BlockingExecutor.Job? {
        condition.lock()
        while count == 0, isTaking { condition.wait() }
        guard count > 0 else {
            runningThreads -= 1
            let waiters = runningThreads == 0 ? endWaiters : []
            if runningThreads == 0 { endWaiters = [] }
            condition.unlock()
            for waiter in waiters { waiter.resume() }
            return nil
        }
        let job = slots[head]
        slots[head] = nil
        head = (head + 1) % slots.count
        count -= 1
        condition.unlock()
        return job
    }
}
