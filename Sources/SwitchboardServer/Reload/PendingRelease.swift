/// A value handed to another thread to be freed there: the last reference moves into this box,
/// and the thread that calls ``release()`` runs the value's teardown (thousands of routes, a
/// whole route table), not the thread that let go of it.
///
/// ```swift
/// let pending = PendingRelease(consume chunk)
/// queue.async { pending.release() }   // the chunk is freed on the queue's thread
/// ```
final class PendingRelease: @unchecked Sendable {
    // Written once by the creator before the box is handed over, then only by `release()`.
    private var contents: (any Sendable)?

    /// Takes `contents`; it should be the caller's last reference to what it holds.
    init(_ contents: consuming any Sendable) {
        self.contents = contents
    }

    /// Drops the value: it is freed now, on this thread, unless someone else still holds it.
    func release() {
        contents = nil
    }
}
