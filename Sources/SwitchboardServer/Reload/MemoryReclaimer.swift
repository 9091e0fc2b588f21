import Dispatch
import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#endif

/// Frees what a reload replaced (the previous snapshot, the decoded config) and then gives
/// the freed memory back to the system, on a thread of its own: a reload returns as soon as
/// its snapshot serves, and the teardown of a large route table and `malloc_trim` happen
/// after.
///
/// At most one batch is in flight: handing over the next one first waits until the previous
/// one is done, so batches (and the memory they hold) never pile up.
///
/// As a `Service` it belongs to the server's service group: ``run()`` lasts as long as the
/// group, and at shutdown it lets the batch in flight finish.
///
/// ```swift
/// var previous = next
/// current.withLock { swap(&$0, &previous) }   // `next` serves from now on
/// reclaimer.reclaim(previous)                 // returns at once; freed on the reclaimer's thread
/// ```
package final class MemoryReclaimer: Service, Sendable {
    private let queue = DispatchQueue(label: "switchboard.memory-reclaimer")
    /// Signalled while no batch is in flight.
    private let idle = DispatchSemaphore(value: 1)

    package init() {}

    /// Frees `garbage` and then returns the freed memory to the system, on the reclaimer's
    /// thread; waits first while the previous batch is still being freed. The call should be
    /// the caller's last use of `garbage`: a reference the caller keeps is not freed here.
    package func reclaim(_ garbage: consuming any Sendable) {
        let batch = PendingRelease(consume garbage)
        idle.wait()
        queue.async { [idle] in
            batch.release()
            Self.returnFreedMemory()
            idle.signal()
        }
    }

    /// Lasts until the service group shuts down gracefully (or is cancelled), then waits for
    /// the batch in flight, if any.
    package func run() async {
        try? await gracefulShutdown()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
    }

    /// Waits until the batch in flight, if any, is freed (tests).
    package func waitUntilIdle() {
        idle.wait()
        idle.signal()
    }

    /// Gives the memory freed by a (re)load back to the system: decoding and building a large
    /// config leaves megabytes of freed heap that glibc's malloc would otherwise keep. Called
    /// after each reload, and once serving starts (the startup config is gone by then).
    package static func returnFreedMemory() {
        #if canImport(Glibc)
            // glibc's `malloc_trim` (malloc.h is not part of the Glibc module).
            typealias MallocTrim = @convention(c) (Int) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
            _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        #endif
    }
}
