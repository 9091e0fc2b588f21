import Synchronization

/// The requests in flight and the drain of a graceful shutdown: counts each request from its
/// request line to its end, and wakes whoever waits for the last one once the server drains
/// (no polling).
final class RequestDrain: Sendable {
    /// Requests seen by the URI log callback and not yet completed.
    private let inFlight = Atomic<Int>(0)
    /// Set when shutdown begins: every response then carries `Connection: close`.
    private let draining = Atomic<Bool>(false)
    /// Who waits for the last request in flight to end, by waiter number.
    private let idleWaiters = Mutex<(next: Int, waiting: [Int: CheckedContinuation<Void, Never>])>((0, [:]))

    /// Requests between their request line and their end, on all threads.
    var inFlightCount: Int { inFlight.load(ordering: .relaxed) }

    /// Whether the server drains (every answer then closes its connection).
    var isDraining: Bool { draining.load(ordering: .relaxed) }

    /// Begins the drain: from here on the end of the last request wakes the waiters.
    func beginDraining() {
        draining.store(true, ordering: .sequentiallyConsistent)
    }

    /// A request has begun.
    func requestBegan() {
        inFlight.add(1, ordering: .sequentiallyConsistent)
    }

    /// A request has ended; the last one of a draining server wakes the waiters.
    func requestEnded() {
        let remaining = inFlight.subtract(1, ordering: .sequentiallyConsistent).newValue
        // Only a draining server has waiters: the serving path never takes the lock.
        guard remaining == 0, draining.load(ordering: .sequentiallyConsistent) else { return }
        let waiters = idleWaiters.withLock { state in
            defer { state.waiting = [:] }
            return state.waiting.values
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits until no request is in flight, or `timeout` has passed; call it once
    /// ``beginDraining()`` has been called.
    ///
    /// - Returns: `true` when the server drained, `false` when the time ran out.
    func waitUntilIdle(timeout: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await self.idle()
                return !Task.isCancelled
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let drained = await group.next() ?? false
            group.cancelAll()
            return drained
        }
    }

    /// Returns once no request is in flight, or the task is cancelled.
    private func idle() async {
        let number = idleWaiters.withLock { state in
            defer { state.next += 1 }
            return state.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = idleWaiters.withLock { state in
                    if inFlight.load(ordering: .sequentiallyConsistent) == 0 || Task.isCancelled {
                        return true
                    }
                    state.waiting[number] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            idleWaiters.withLock { $0.waiting.removeValue(forKey: number) }?.resume()
        }
    }
}
