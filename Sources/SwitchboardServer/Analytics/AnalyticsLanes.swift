import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every thread's ``AnalyticsLane``, each found through a thread-specific key: a request
/// reaches its own thread's lane with one `pthread_getspecific`, no lock and no hashing.
///
/// A thread gets its lane at its first event (the one allocation, under a lock taken once per
/// thread). When the thread exits, its lane is marked retired, and the fold lets it go once it
/// has taken its events.
final class AnalyticsLanes: @unchecked Sendable {
    // @unchecked: `key` is set once in `init`; the list of lanes is behind its lock.

    private var key = pthread_key_t()
    private let hasKey: Bool
    private let lanes = Mutex<[AnalyticsLane]>([])
    /// Events the lanes of exited threads dropped.
    private let droppedByRetired = Atomic<Int>(0)

    init() {
        // The thread's reference to its lane is a retained one, given back when the thread exits.
        hasKey =
            pthread_key_create(&key) { pointer in
                guard let pointer else { return }
                let lane = Unmanaged<AnalyticsLane>.fromOpaque(pointer).takeRetainedValue()
                lane.retired.store(true, ordering: .releasing)
            } == 0
    }

    deinit {
        if hasKey { pthread_key_delete(key) }
    }

    /// The calling thread's lane; `nil` only when the process ran out of thread-specific keys.
    @inline(__always)
    var current: AnalyticsLane? {
        guard hasKey else { return nil }
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<AnalyticsLane>.fromOpaque(pointer).takeUnretainedValue()
        }
        return makeLane()
    }

    private func makeLane() -> AnalyticsLane {
        let lane = AnalyticsLane()
        lanes.withLock { $0.append(lane) }
        pthread_setspecific(key, Unmanaged.passRetained(lane).toOpaque())
        return lane
    }

    /// Hands every waiting event of every lane to `body`, and lets go of the lanes of exited
    /// threads; returns the events dropped since the start. Called by one fold at a time.
    func drain(_ body: (consuming AnalyticsEvent) -> Void) -> Int {
        let all = lanes.withLock { $0 }
        for lane in all {
            let retired = lane.retired.load(ordering: .acquiring)
            lane.drain(body)
            if retired {
                droppedByRetired.add(lane.dropped.load(ordering: .relaxed), ordering: .relaxed)
                lanes.withLock { $0.removeAll { $0 === lane } }
            }
        }
        return lanes.withLock { $0.reduce(droppedByRetired.load(ordering: .relaxed)) { $0 + $1.dropped.load(ordering: .relaxed) } }
    }
}
