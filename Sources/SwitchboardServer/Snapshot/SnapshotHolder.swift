import Atomics
import Synchronization

/// Holds the snapshot that requests use, and serialises whatever replaces it.
///
/// Requests read ``current`` through an atomic reference: no lock on the request path, and a
/// reader always gets one whole snapshot. Writers (a reload, an admin change, a store sync)
/// go through ``update(_:)`` one at a time, so that each reads the snapshot it replaces and
/// swaps in its successor as one step.
///
/// ```swift
/// let snapshot = holder.current                       // a request
/// try holder.update { running in                      // a writer
///     let next = try running.replacingAdminState(with: admin)
///     return (next, next.admin.version)
/// }
/// ```
package final class SnapshotHolder: Sendable {
    private let reference: ManagedAtomic<Snapshot>
    /// Serialises writers; readers never take it.
    private let writer = Mutex<Void>(())

    package init(_ snapshot: Snapshot) {
        reference = ManagedAtomic(snapshot)
    }

    /// The snapshot requests use now.
    package var current: Snapshot {
        reference.load(ordering: .acquiring)
    }

    /// Runs `body` with the running snapshot while no other writer runs; when it returns a
    /// successor, that successor serves from then on.
    ///
    /// - Parameter body: gets the running snapshot; returns the snapshot to swap in (or `nil`
    ///   to keep the running one) and a result. Throwing keeps the running snapshot.
    /// - Returns: `body`'s result and the snapshot it replaced (`nil` when none was), for the
    ///   caller to free off its critical path.
    package func update<Result, Failure: Error>(
        _ body: (_ running: Snapshot) throws(Failure) -> (next: Snapshot?, result: Result)
    ) throws(Failure) -> (result: Result, replaced: Snapshot?) {
        try writer.withLock { (_: inout Void) throws(Failure) -> (result: Result, replaced: Snapshot?) in
            let running = current
            let (next, result) = try body(running)
            guard let next else { return (result, nil) }
            let replaced = reference.exchange(next, ordering: .acquiringAndReleasing)
            return (result, replaced)
        }
    }
}
