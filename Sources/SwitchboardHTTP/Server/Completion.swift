import Synchronization

/// A one-shot event that tasks can wait for: ``wait()`` returns once ``complete()`` has been
/// called, at once when it already has been.
final class Completion: Sendable {
    private struct State {
        var completed = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Marks the event as happened and wakes every waiter (idempotent).
    func complete() {
        let waiters = state.withLock { state in
            state.completed = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Suspends until ``complete()`` has been called.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let completed = state.withLock { state in
                if state.completed { return true }
                state.waiters.append(continuation)
                return false
            }
            if completed { continuation.resume() }
        }
    }
}
