#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Each worker thread's body buffer, kept under a pthread key: the handler writes a body there
/// and the buffer's storage is reused from request to request, without a lock, since only its
/// own thread touches it. A thread's buffer is released when the thread ends.
final class WorkerBodyBuffers: Sendable {
    /// One thread's buffer.
    final class Buffer {
        var bytes: [UInt8] = []
    }

    /// `nil` when the process has no key left: each request then gets a buffer of its own.
    private let key: pthread_key_t?

    init() {
        var key = pthread_key_t()
        self.key = pthread_key_create(&key, workerBodyBufferReleased) == 0 ? key : nil
    }

    deinit {
        // The daemon's threads have ended (each released its buffer): the key is unused.
        if let key { pthread_key_delete(key) }
    }

    /// The calling thread's buffer, made on its first request, emptied (its capacity kept).
    func current() -> Buffer {
        guard let key else { return Buffer() }
        if let kept = pthread_getspecific(key) {
            let buffer = Unmanaged<Buffer>.fromOpaque(kept).takeUnretainedValue()
            buffer.bytes.removeAll(keepingCapacity: true)
            return buffer
        }
        let buffer = Buffer()
        if pthread_setspecific(key, Unmanaged.passRetained(buffer).toOpaque()) != 0 {
            Unmanaged.passUnretained(buffer).release()
        }
        return buffer
    }
}

/// The key's destructor: a thread that had a buffer has ended.
private func workerBodyBufferReleased(_ buffer: UnsafeMutableRawPointer?) {
    guard let buffer else { return }
    Unmanaged<WorkerBodyBuffers.Buffer>.fromOpaque(buffer).release()
}
