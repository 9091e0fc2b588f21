import Foundation
import Logging
import SwitchboardCore
import SwitchboardStore

/// Applies admin changes and follows the admin store, each as one transaction on the
/// ``SnapshotHolder``: check `If-Match`, edit a copy of the admin state, validate the snapshot
/// it builds, persist durably, then swap. Nothing changes when any step fails.
package final class AdminWriter: Sendable {
    private let holder: SnapshotHolder
    /// Where the admin state lives: `data_dir/state.json`, or PostgreSQL shared by replicas.
    package let store: any AdminStore
    private let metrics: Metrics
    private let reclaimer: MemoryReclaimer
    private let logger: Logger
    /// How many times a change without `If-Match` is made again when another replica wrote
    /// first.
    private static let attemptsAgainstAStoreThatMovedOn = 4

    package init(
        holder: SnapshotHolder, store: any AdminStore, metrics: Metrics, reclaimer: MemoryReclaimer, logger: Logger
    ) {
        self.holder = holder
        self.store = store
        self.metrics = metrics
        self.reclaimer = reclaimer
        self.logger = logger
        store.routeNotices(to: logger)
    }

    /// Applies `change` made against `expectedVersion` (from `If-Match`; `nil` for any).
    ///
    /// With a shared store, this process may lag behind it (see ``onCurrentState(_:expectedVersion:_:)``).
    ///
    /// - Parameter actor: the name of the admin token, for the history.
    /// - Returns: the snapshot that serves from now on (its `admin.version` is the new version).
    /// - Throws: ``AdminChangeError``; the running state is unchanged.
    package func apply(_ change: AdminChange, expectedVersion: Int?, actor: String) throws(AdminChangeError) -> Snapshot {
        let started = ContinuousClock.now
        var persisting = Duration.zero
        var (next, replaced) = try holder.update { (running) throws(AdminChangeError) -> (next: Snapshot?, result: Snapshot) in
            let next = try onCurrentState(running, expectedVersion: expectedVersion) { (running) throws(AdminChangeError) in
                try commit(change, on: running, expectedVersion: expectedVersion, actor: actor, persisting: &persisting)
            }
            return (next, next)
        }
        // How long the whole write took and how much of it was the store's, for the admin
        // write benchmark (scripts/loadtest/admin-write.sh) and for operators.
        logger.notice(
            "admin state changed",
            metadata: [
                "version": "\(next.admin.version)", "token": "\(actor)", "action": "\(change.action)",
                "write_ms": "\(Self.milliseconds(ContinuousClock.now - started))", "store_ms": "\(Self.milliseconds(persisting))",
            ])
        // A new router (admin routes changed): the old one is freed, and the memory handed
        // back, on the reclaimer's thread.
        if let old = replaced.take(), !next.resolver.router.routes.sharesStorage(with: old.resolver.router.routes) {
            reclaimer.reclaim(old)
        }
        return next
    }

    /// One attempt of ``apply(_:expectedVersion:actor:)`` on `running`; `persisting` is set to
    /// the time the store took.
    private func commit(
        _ change: AdminChange, on running: Snapshot, expectedVersion: Int?, actor: String, persisting: inout Duration
    ) throws(AdminChangeError) -> Snapshot {
        let (admin, next) = try prepare(change, on: running, expectedVersion: expectedVersion, actor: actor)
        let storing = ContinuousClock.now
        do throws(AdminStoreError) {
            try store.commit(admin, replacing: running.admin.version)
            persisting = ContinuousClock.now - storing
        } catch {
            throw refusal(error)
        }
        metrics.recordSnapshot(next)
        return next
    }

    /// The step a change and its dry run share: checks `If-Match`, edits a copy of the admin
    /// state, records the history entry, checks the limits and builds the candidate snapshot.
    /// Nothing is persisted or swapped.
    private func prepare(
        _ change: AdminChange, on running: Snapshot, expectedVersion: Int?, actor: String
    ) throws(AdminChangeError) -> (admin: AdminState, next: Snapshot) {
        if let expectedVersion, expectedVersion != running.admin.version {
            throw AdminChangeError(
                .versionMismatch, code: "version_mismatch",
                message: "the admin state is at version \(running.admin.version), not \(expectedVersion); "
                    + "fetch it again and retry with the new ETag")
        }
        var admin = running.admin
        try change.apply(to: &admin, in: running)
        admin.version = running.admin.version + 1
        var entry = AdminHistoryEntry(
            from: running.admin, to: admin, time: Self.timestamp(Date()), token: actor, action: change.action,
            rollbackTo: change.rollbackTarget)
        if let moved = change.movedRuleID, !entry.ids.contains(moved) { entry.ids.append(moved) }
        admin.history.append(entry)
        let keep = running.config.settings.historyLimit
        if admin.history.count > keep { admin.history.removeFirst(admin.history.count - keep) }
        let limit = running.config.settings.limits.maxAdminRules
        // A change that adds no rule is never refused: after the limit is lowered below the
        // rules there are, deleting or editing them must still work.
        guard admin.rules.count <= limit || admin.rules.count <= running.admin.rules.count else {
            throw AdminChangeError(
                .limitExceeded, code: "limit_exceeded",
                message: "\(admin.rules.count) admin rules would exceed the limit of \(limit) (limits.max_admin_rules)")
        }
        let next: Snapshot
        do throws(ConfigIssues) {
            next = try running.replacingAdminState(with: admin)
        } catch {
            let limit = error.issues.contains { $0.code == "limit_exceeded" }
            let conflict = error.issues.contains(where: \.isConflict)
            throw AdminChangeError(
                limit ? .limitExceeded : conflict ? .conflict : .invalid,
                code: limit ? "limit_exceeded" : conflict ? "conflict" : "invalid_change",
                message: error.issues.map(\.description).joined(separator: "; "), issues: error.issues)
        }
        return (admin, next)
    }

    /// Loads the admin state from the store and swaps it in when it is newer than the running
    /// one (another replica changed it).
    ///
    /// - Throws: ``AdminChangeError`` (`storeUnavailable`, `conflict`) when the store cannot be
    ///   read or its state does not build with this replica's config; the running state stays.
    package func syncFromStore() throws(AdminChangeError) {
        // Read outside the holder's lock: a store that is slow or frozen must not hold up
        // reloads and changes while this waits for it.
        let stored = try loadStoredState()
        var (_, replaced) = try holder.update { (running) throws(AdminChangeError) -> (next: Snapshot?, result: Void) in
            (try snapshot(of: stored, over: running), ())
        }
        if let old = replaced.take() { reclaimer.reclaim(old) }
    }

    /// What `change` made against `expectedVersion` would do, without doing it (`?dry_run=1`):
    /// the same checks and the same candidate snapshot as ``apply(_:expectedVersion:actor:)``
    /// (it is its ``prepare(_:on:expectedVersion:actor:)`` step), then nothing is persisted,
    /// the version stays and nothing is swapped in.
    ///
    /// - Throws: ``AdminChangeError``, exactly as the real change would.
    package func preview(_ change: AdminChange, expectedVersion: Int?, actor: String) throws(AdminChangeError) -> AdminChangePreview {
        try candidate(change, expectedVersion: expectedVersion, actor: actor).preview
    }

    /// The dry run of ``preview(_:expectedVersion:actor:)`` with the snapshots on both sides:
    /// the running one it was checked against and the candidate the change would swap in, for
    /// `POST /admin/preview` to resolve traffic against both. Nothing is persisted or swapped.
    ///
    /// - Throws: ``AdminChangeError``, exactly as the real change would.
    package func candidate(
        _ change: AdminChange, expectedVersion: Int?, actor: String
    ) throws(AdminChangeError) -> (running: Snapshot, candidate: Snapshot, preview: AdminChangePreview) {
        try holder.update { (running) throws(AdminChangeError) -> (next: Snapshot?, result: (Snapshot, Snapshot, AdminChangePreview)) in
            let result = try onCurrentState(running, expectedVersion: expectedVersion) { (running) throws(AdminChangeError) in
                let prepared = try prepare(change, on: running, expectedVersion: expectedVersion, actor: actor)
                return (running, prepared.next, AdminChangePreview(from: running.admin, to: prepared.admin, change: change))
            }
            return (nil, result)
        }.result
    }

    /// Runs `attempt` on `running`, or, with a shared store that is ahead of this process, on
    /// the stored state. A replica may lag behind the store (a notification not yet read, or
    /// lost while the database was away), so a refusal that depends on the state it judged
    /// against is judged again on the stored state before it is given:
    /// - `If-Match` naming another version is checked after catching up;
    /// - an unknown id (`404`), a clash (`409`) or a limit (`422`) is judged again when the store
    ///   holds a newer version;
    /// - a change without `If-Match` that lost a race to another replica's commit is made again
    ///   on the fresh state, up to ``attemptsAgainstAStoreThatMovedOn`` times.
    ///
    /// A store that cannot be read makes each of these a `503 store_unavailable`: whether the
    /// refusal holds is not known.
    private func onCurrentState<Result>(
        _ running: Snapshot, expectedVersion: Int?, _ attempt: (Snapshot) throws(AdminChangeError) -> Result
    ) throws(AdminChangeError) -> Result {
        var running = running
        if let expectedVersion, expectedVersion != running.admin.version, store.isShared {
            running = try loadNewerStoredState(than: running) ?? running
        }
        var attempts = 0
        while true {
            attempts += 1
            do throws(AdminChangeError) {
                return try attempt(running)
            } catch {
                guard store.isShared, attempts < Self.attemptsAgainstAStoreThatMovedOn else { throw error }
                switch error.kind {
                case .versionMismatch where expectedVersion == nil:
                    running = try loadNewerStoredState(than: running) ?? running
                case .notFound, .conflict, .limitExceeded:
                    guard let newer = try loadNewerStoredState(than: running) else { throw error }
                    running = newer
                default:
                    throw error
                }
            }
        }
    }

    /// The snapshot of the stored state when it is newer than `running`'s, else `nil`.
    private func loadNewerStoredState(than running: Snapshot) throws(AdminChangeError) -> Snapshot? {
        try snapshot(of: try loadStoredState(), over: running)
    }

    /// The state in the store.
    private func loadStoredState() throws(AdminChangeError) -> AdminState {
        do {
            return try store.load()
        } catch {
            throw AdminChangeError(.storeUnavailable, code: "store_unavailable", message: error.message)
        }
    }

    /// The snapshot of `stored` when it is newer than `running`'s, else `nil`.
    private func snapshot(of stored: AdminState, over running: Snapshot) throws(AdminChangeError) -> Snapshot? {
        guard stored.version > running.admin.version else { return nil }
        do throws(ConfigIssues) {
            let next = try running.replacingAdminState(with: stored)
            metrics.recordSnapshot(next)
            logger.notice("admin state updated from the store", metadata: ["version": "\(stored.version)"])
            return next
        } catch {
            logger.error(
                "the admin state in the store does not build with this replica's config; keeping the running state",
                metadata: ["version": "\(stored.version)", "errors": "\(error.description)"])
            throw AdminChangeError(.conflict, code: "conflict", message: error.description, issues: error.issues)
        }
    }

    /// The refusal for a store that failed.
    private func refusal(_ error: AdminStoreError) -> AdminChangeError {
        switch error.kind {
        case .versionConflict:
            return AdminChangeError(.versionMismatch, code: "version_mismatch", message: error.message)
        case .unavailable:
            logger.error("the admin store is unavailable; the change is refused", metadata: ["error": "\(error)"])
            return AdminChangeError(
                .storeUnavailable, code: "store_unavailable",
                message: "\(error.message); resolving goes on with the last state, retry the change later")
        case .failed:
            logger.error("cannot persist the admin state; the change is refused", metadata: ["error": "\(error)"])
            return AdminChangeError(.persistenceFailed, code: "persistence_failed", message: error.description)
        }
    }

    /// `duration` in milliseconds, with one decimal.
    private static func milliseconds(_ duration: Duration) -> String {
        let microseconds = duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
        return String(format: "%.1f", Double(microseconds) / 1000)
    }

    /// RFC 3339 in UTC with milliseconds, e.g. `2026-11-24T22:30:00.123Z`.
    private static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
