import Foundation
import Logging
import SwitchboardCore
import Synchronization

/// The state of a running Switchboard: the current snapshot, swapped atomically, and the
/// operations that replace it (config reloads and admin changes), serialised with one
/// another but never blocking requests, which only read the current snapshot.
package final class SwitchboardService: Sendable {
    /// Why the service could not start.
    package struct StartupError: Error, CustomStringConvertible {
        package let description: String
    }

    package let configDirectory: String
    package let logger: Logger
    package let metrics: Metrics
    /// Where the admin state lives: `data_dir/state.json`, or PostgreSQL shared by replicas.
    package let store: any AdminStateStore
    package let startedAt = Date()
    /// The time for conditional rules, in seconds since the Unix epoch (injectable for tests).
    package let clock: @Sendable () -> Double
    /// The admin bearer tokens, by name; empty (admin API disabled) while none is set.
    package let adminTokens: [AdminToken]
    private let current: Mutex<Snapshot>
    /// Serialises reloads and admin writes: read-modify-persist-swap happens as one step.
    private let writer = Mutex<Void>(())
    private let lastReload: Mutex<ReloadStatus>
    /// Frees what a reload replaced after the reload returns.
    private let reclaimer = MemoryReclaimer()
    /// How many routes a reload's decoding threads hand over at a time: small enough that
    /// registering starts early, large enough that handing over costs nothing.
    private static let routeChunkSize = 2048

    /// Loads the config and the persisted admin state, and builds the first snapshot.
    /// - Throws: ``StartupError`` naming every problem: a broken config or a corrupt state file
    ///   stops startup (the state file is never discarded).
    package init(
        configDirectory: String, environment: [String: String] = ProcessInfo.processInfo.environment,
        logger: Logger, metrics: Metrics = Metrics(),
        clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) throws(StartupError) {
        self.clock = clock
        self.configDirectory = configDirectory
        self.logger = logger
        self.metrics = metrics
        let config: ConfigDirectory
        do {
            config = try ConfigDirectory.load(from: configDirectory)
        } catch {
            throw StartupError(description: "the config in \(configDirectory) does not load:\n\(error)")
        }
        let admin: AdminState
        do {
            store = try AdminStores.make(settings: config.settings, environment: environment)
            admin = try store.load()
        } catch {
            throw StartupError(description: "the admin state cannot be loaded: \(error.description)")
        }
        let snapshot: Snapshot
        do {
            snapshot = try Snapshot.build(config: config, admin: admin)
        } catch {
            throw StartupError(description: "the config and the admin state do not build:\n\(error)")
        }
        var tokens: [AdminToken] = []
        let settings = config.settings
        for (name, variable) in [("admin", settings.adminTokenEnv)] + settings.adminTokens.map({ ($0.name, $0.tokenEnv) }) {
            if let secret = environment[variable], !secret.isEmpty {
                tokens.append(AdminToken(name: name, secret: secret))
            } else if name != "admin" {
                logger.warning("admin token '\(name)' is disabled: \(variable) is not set")
            }
        }
        adminTokens = tokens
        if tokens.isEmpty {
            logger.warning("admin API disabled: \(settings.adminTokenEnv) is not set")
        }
        current = Mutex(snapshot)
        lastReload = Mutex(ReloadStatus(time: Date(), trigger: "startup", succeeded: true, issues: []))
        record(snapshot)
    }

    /// The snapshot requests use now.
    package var snapshot: Snapshot { current.withLock { $0 } }

    /// The last reload attempt.
    package var reloadStatus: ReloadStatus { lastReload.withLock { $0 } }

    /// Re-reads the config directory and swaps in the new snapshot; on any problem keeps the
    /// running snapshot and reports every issue. The logged duration ends when the new snapshot
    /// serves; the previous snapshot and the builder's tables are freed
    /// after, on the ``MemoryReclaimer``'s thread.
    ///
    /// The metrics and `/admin/status` are brought up to date before the outcome can be seen
    /// (before the swap on success): whoever sees the new routes served, or the failure
    /// reported in the status, finds the reload already counted.
    /// - Parameter trigger: for logs and status (`watch`, `SIGHUP`, `api`).
    /// - Returns: the new snapshot, or every issue found.
    @discardableResult
    package func reload(trigger: String) -> Result<Snapshot, ConfigIssues> {
        writer.withLock { _ in
            let started = ContinuousClock.now
            let result: Result<Snapshot, ConfigIssues>
            var replaced: (snapshot: Snapshot, leftovers: any Sendable)?
            do throws(ConfigIssues) {
                // The route files are decoded, and their routes made, on other threads while
                // the routes are registered.
                let loading = try ConfigDirectory.startLoading(from: configDirectory, chunkSize: Self.routeChunkSize) {
                    definition, module in definition.route(module: module)
                }
                let running = self.snapshot
                let (snapshot, leftovers) = try Snapshot.build(
                    loading: loading, admin: running.admin, expectedRouteCount: running.configRouteCount)
                record(snapshot)
                metrics.recordReload(succeeded: true)
                lastReload.withLock { $0 = ReloadStatus(time: Date(), trigger: trigger, succeeded: true, issues: []) }
                var previous = snapshot
                current.withLock { swap(&$0, &previous) }
                replaced = (previous, leftovers)
                result = .success(snapshot)
            } catch {
                metrics.recordReload(succeeded: false)
                lastReload.withLock {
                    $0 = ReloadStatus(time: Date(), trigger: trigger, succeeded: false, issues: error.issues)
                }
                result = .failure(error)
            }
            let elapsed = ContinuousClock.now - started
            if let replaced = replaced.take() {
                reclaimer.reclaim(replaced)
            }
            switch result {
            case .success(let snapshot):
                logger.info(
                    "config reloaded",
                    metadata: [
                        "trigger": "\(trigger)", "routes": "\(snapshot.resolver.router.routes.count)",
                        "rules": "\(snapshot.resolver.rewriter.rules.count)", "duration": "\(elapsed)",
                    ])
            case .failure(let issues):
                logger.error(
                    "config reload failed; still serving the previous config",
                    metadata: ["trigger": "\(trigger)", "errors": "\(issues.description)"])
            }
            return result
        }
    }

    /// Applies an admin change: checks `If-Match`, validates the new state as a whole, persists
    /// it durably, then swaps the snapshot. Nothing changes if any step fails.
    ///
    /// - Parameters:
    ///   - expectedVersion: the version from `If-Match`, or `nil` to skip the check.
    ///   - change: edits a copy of the admin state; throws to refuse.
    /// - Returns: the new snapshot (its `admin.version` is the new version).
    package func changeAdminState(
        expectedVersion: Int?, actor: String = "admin", action: String = "change", rollbackTo: Int? = nil,
        _ change: (inout AdminState, Snapshot) throws(AdminChangeError) -> Void
    ) throws(AdminChangeError) -> Snapshot {
        try writer.withLock { (_: inout Void) throws(AdminChangeError) -> Snapshot in
            // A shared store may have moved on (another replica wrote): without If-Match the
            // change is made again on the fresh state, a few times; with If-Match it is a 412.
            // This replica may lag behind the shared store: catch up before judging If-Match.
            if let expectedVersion, expectedVersion != snapshot.admin.version, store is PostgresAdminStore {
                try? syncFromStoreLocked()
            }
            var attempt = 0
            while true {
                attempt += 1
                do throws(AdminChangeError) {
                    return try applyChange(
                        expectedVersion: expectedVersion, actor: actor, action: action, rollbackTo: rollbackTo, change)
                } catch {
                    guard error.status == 412, expectedVersion == nil, attempt < 4 else { throw error }
                    try syncFromStoreLocked()
                }
            }
        }
    }

    /// One attempt of ``changeAdminState(expectedVersion:actor:action:rollbackTo:_:)``; the
    /// caller holds the writer lock.
    private func applyChange(
        expectedVersion: Int?, actor: String, action: String, rollbackTo: Int?,
        _ change: (inout AdminState, Snapshot) throws(AdminChangeError) -> Void
    ) throws(AdminChangeError) -> Snapshot {
        let before = snapshot
        if let expectedVersion, expectedVersion != before.admin.version {
            throw AdminChangeError(
                status: 412, code: "version_mismatch",
                message: "the admin state is at version \(before.admin.version), not \(expectedVersion); "
                    + "fetch it again and retry with the new ETag")
        }
        var admin = before.admin
        try change(&admin, before)
        admin.version = before.admin.version + 1
        admin.history.append(
            AdminHistoryEntry(
                version: admin.version, time: Self.timestamp(Date()), token: actor, action: action,
                ids: AdminHistoryEntry.changedIDs(from: before.admin, to: admin), rollbackTo: rollbackTo,
                rules: admin.rules, routes: admin.routes))
        let keep = before.config.settings.historyLimit
        if admin.history.count > keep { admin.history.removeFirst(admin.history.count - keep) }
        let limit = before.config.settings.limits.maxAdminRules
        guard admin.rules.count <= limit else {
            throw AdminChangeError(
                status: 422, code: "limit_exceeded",
                message: "\(admin.rules.count) admin rules would exceed the limit of \(limit) (limits.max_admin_rules)")
        }
        let next: Snapshot
        do throws(ConfigIssues) {
            next = try before.replacingAdminState(with: admin)
        } catch {
            // A limit hit is a 422, like the admin rule limit above, not a 400 blaming the input.
            let limit = error.issues.contains { $0.code == "limit_exceeded" }
            let conflict = error.issues.contains(where: \.isConflict)
            throw AdminChangeError(
                status: limit ? 422 : conflict ? 409 : 400,
                code: limit ? "limit_exceeded" : conflict ? "conflict" : "invalid_change",
                message: error.issues.map(\.description).joined(separator: "; "), issues: error.issues)
        }
        do throws(AdminStoreError) {
            try store.commit(admin, replacing: before.admin.version)
        } catch {
            switch error.kind {
            case .versionConflict:
                throw AdminChangeError(status: 412, code: "version_mismatch", message: error.message)
            case .unavailable:
                logger.error("the admin store is unavailable; the change is refused", metadata: ["error": "\(error)"])
                throw AdminChangeError(
                    status: 503, code: "store_unavailable",
                    message: "\(error.message); resolving goes on with the last state, retry the change later")
            case .failed:
                logger.error("cannot persist the admin state; the change is refused", metadata: ["error": "\(error)"])
                throw AdminChangeError(status: 503, code: "persistence_failed", message: error.description)
            }
        }
        let replacesRouter = !next.resolver.router.routes.sharesStorage(with: before.resolver.router.routes)
        record(next)
        current.withLock { $0 = next }
        logger.notice("admin state changed", metadata: ["version": "\(admin.version)", "token": "\(actor)", "action": "\(action)"])
        // A new router (admin routes changed): the old one is freed, and the memory handed
        // back, on the reclaimer's thread. This is the last use of `before` here.
        if replacesRouter { reclaimer.reclaim(before) }
        return next
    }

    /// Loads the admin state from the store and swaps it in when it is newer than the running
    /// one (another replica changed it). Called by the PostgreSQL listener.
    package func syncFromStore() {
        writer.withLock { _ in
            do throws(AdminChangeError) {
                try syncFromStoreLocked()
            } catch {
                logger.warning("cannot resynchronise with the admin store", metadata: ["error": "\(error.message)"])
            }
        }
    }

    private func syncFromStoreLocked() throws(AdminChangeError) {
        let stored: AdminState
        do {
            stored = try store.load()
        } catch {
            throw AdminChangeError(status: 503, code: "store_unavailable", message: error.message)
        }
        let running = snapshot
        guard stored.version > running.admin.version else { return }
        do throws(ConfigIssues) {
            let next = try running.replacingAdminState(with: stored)
            record(next)
            current.withLock { $0 = next }
            logger.notice("admin state updated from the store", metadata: ["version": "\(stored.version)"])
        } catch {
            logger.error(
                "the admin state in the store does not build with this replica's config; keeping the running state",
                metadata: ["version": "\(stored.version)", "errors": "\(error.description)"])
            throw AdminChangeError(status: 409, code: "conflict", message: error.description, issues: error.issues)
        }
    }

    /// RFC 3339 in UTC with milliseconds, e.g. `2026-11-24T22:30:00.123Z`.
    private static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    private func record(_ snapshot: Snapshot) {
        metrics.recordSnapshot(
            routes: snapshot.resolver.router.routes.count, rules: snapshot.resolver.rewriter.rules.count,
            adminVersion: snapshot.admin.version)
    }
}
