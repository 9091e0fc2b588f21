import Synchronization

/// One thread's events waiting to be folded: a ring of a fixed number of slots with one writer
/// (the thread that owns the lane) and one reader (the fold, under ``Analytics``'s lock).
///
/// The writer fills the slot after the last one written and publishes it with a release store
/// of ``written``; the reader takes every published slot and hands them back with a release
/// store of ``read``. Neither waits for the other, and nothing is allocated after the ring:
/// when the reader falls a whole ring behind, an event is dropped (and counted in
/// ``dropped``) rather than blocking the request.
final class AnalyticsLane: @unchecked Sendable {
    // @unchecked: the slots are reached by one writer and one reader, ordered by the two
    // atomic positions (see the type's comment).

    /// Slots in every lane: at the fold's pace (``AnalyticsService/foldInterval``), a worker
    /// thread may answer 80,000 requests a second before any is dropped.
    static let capacity = 4_096

    private let slots: UnsafeMutablePointer<AnalyticsEvent>
    private let mask = AnalyticsLane.capacity - 1
    /// Events written so far (only the owning thread stores it).
    private let written = Atomic<Int>(0)
    /// Events read so far (only the fold stores it).
    private let read = Atomic<Int>(0)
    /// Events dropped because the ring was full.
    let dropped = Atomic<Int>(0)
    /// Set when the owning thread has exited: once drained, the lane can go.
    let retired = Atomic<Bool>(false)

    init() {
        slots = .allocate(capacity: Self.capacity)
    }

    deinit {
        let first = read.load(ordering: .acquiring)
        let last = written.load(ordering: .acquiring)
        for position in first..<last { (slots + (position & mask)).deinitialize(count: 1) }
        slots.deallocate()
    }

    /// Appends `event`; called only by the owning thread.
    @inline(__always)
    func push(_ event: consuming AnalyticsEvent) {
        let position = written.load(ordering: .relaxed)
        guard position - read.load(ordering: .acquiring) < Self.capacity else {
            dropped.add(1, ordering: .relaxed)
            return
        }
        (slots + (position & mask)).initialize(to: event)
        written.store(position + 1, ordering: .releasing)
    }

    /// Hands every event written so far to `body`, oldest first; called only by the fold.
    func drain(_ body: (consuming AnalyticsEvent) -> Void) {
        let first = read.load(ordering: .relaxed)
        let last = written.load(ordering: .acquiring)
        guard first < last else { return }
        for position in first..<last { body((slots + (position & mask)).move()) }
        read.store(last, ordering: .releasing)
    }
}
