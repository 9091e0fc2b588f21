import Foundation
import Logging
import SwitchboardCore
import Synchronization

/// The reload pipeline, in one place: read the config directory (route files decoded on all
/// cores, their routes registered as they arrive), build a snapshot with the running admin
/// state, swap it in, free the old one off the critical path. All-or-nothing: on any problem
/// the running snapshot stays and every issue is reported.
///
/// Every trigger (the watcher, `SIGHUP`, `POST /admin/reload`) ends in ``reload(_:)``.
package final class Reloader: Sendable {
    /// The config directory that is read.
    package let configDirectory: String
    private let holder: SnapshotHolder
    private let metrics: Metrics
    private let reclaimer: MemoryReclaimer
    private let logger: Logger
    /// The admin tokens, read again from the new settings and the environment at every
    /// successful reload (`nil`: none to refresh).
    private let adminTokens: AdminTokenHolder?
    private let lastReload: Mutex<ReloadStatus>
    /// The settings the server started with (the start-only ones stay in force until a restart).
    private let startSettings: ServerSettings
    /// The TLS listeners' certificates, read again at every reload.
    private let certificates: ListenerCertificates
    /// The variables that override start-only settings (``SettingsEnvironment``), read at every build.
    package let environment: @Sendable () -> [String: String]
    /// How many routes a reload's decoding threads hand over at a time: small enough that
    /// registering starts early, large enough that handing over costs nothing.
    private static let routeChunkSize = 2048

    package init(
        configDirectory: String, holder: SnapshotHolder, metrics: Metrics, reclaimer: MemoryReclaimer,
        adminTokens: AdminTokenHolder? = nil, certificates: ListenerCertificates = ListenerCertificates(),
        environment: @escaping @Sendable () -> [String: String] = { [:] }, logger: Logger
    ) {
        self.adminTokens = adminTokens
        self.certificates = certificates
        self.environment = environment
        self.configDirectory = configDirectory
        self.holder = holder
        self.metrics = metrics
        self.reclaimer = reclaimer
        self.logger = logger
        self.lastReload = Mutex(ReloadStatus(time: Date(), trigger: .startup, succeeded: true, issues: []))
        self.startSettings = holder.current.config.settings
    }

    /// The last reload attempt (the startup load until the first reload).
    package var status: ReloadStatus { lastReload.withLock { $0 } }

    /// The time since `start`, in seconds.
    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// The snapshot the config directory on disk builds with `running`'s admin state, taking
    /// `running`'s unchanged compiled rules: what a reload swaps in, and what a previewed
    /// reload compares against. Nothing is swapped or recorded here.
    /// - Returns: the snapshot, and what building needed and serving does not (to be freed off
    ///   the caller's critical path).
    /// - Throws: ``ConfigIssues``, every issue of the directory.
    static func build(
        from configDirectory: String, running: Snapshot, environment: [String: String]
    ) throws(ConfigIssues) -> (snapshot: Snapshot, leftovers: any Sendable) {
        let loading = try ConfigDirectory.startLoading(
            from: configDirectory, chunkSize: routeChunkSize, environment: environment
        ) { definition, module in definition.route(module: module) }
        return try Snapshot.build(
            loading: loading, admin: running.admin, expectedRouteCount: running.configRouteCount,
            previousRewriter: running.resolver.rewriter)
    }

    /// Re-reads the config directory and the TLS certificates and swaps in the new snapshot and
    /// certificates; on any problem keeps the running snapshot and certificates and reports
    /// every issue. The logged duration ends when the new
    /// snapshot serves; the previous snapshot and the builder's tables are freed after, on the
    /// ``MemoryReclaimer``'s thread.
    ///
    /// The metrics and the status are brought up to date before the outcome can be seen
    /// (before the swap on success): whoever sees the new routes served, or the failure
    /// reported, finds the reload already counted.
    ///
    /// - Returns: the new snapshot, or every issue found.
    @discardableResult
    package func reload(_ trigger: ReloadTrigger) -> Result<Snapshot, ConfigIssues> {
        let started = ContinuousClock.now
        // What building needed and serving does not (the builder's tables of every route).
        var leftovers: (any Sendable)?
        var (result, replaced) = holder.update { (running) -> (next: Snapshot?, result: Result<Snapshot, ConfigIssues>) in
            do throws(ConfigIssues) {
                let built = try Self.build(from: configDirectory, running: running, environment: environment())
                leftovers = built.leftovers
                let renewedCertificates = try certificates.readAgain()
                do throws(AdminTokenErrors) {
                    try adminTokens?.refresh(settings: built.snapshot.config.settings, logger: logger)
                } catch {
                    throw ConfigIssues(error.issues)
                }
                metrics.recordSnapshot(built.snapshot)
                metrics.recordReload(succeeded: true, seconds: Self.seconds(since: started))
                let restart = built.snapshot.config.settings.startOnlyChanges(since: startSettings)
                lastReload.withLock {
                    $0 = ReloadStatus(time: Date(), trigger: trigger, succeeded: true, issues: [], restartRequired: restart)
                }
                certificates.install(renewedCertificates)
                return (built.snapshot, .success(built.snapshot))
            } catch {
                metrics.recordReload(succeeded: false, seconds: Self.seconds(since: started))
                lastReload.withLock {
                    $0 = ReloadStatus(time: Date(), trigger: trigger, succeeded: false, issues: error.issues)
                }
                return (nil, .failure(error))
            }
        }
        let elapsed = ContinuousClock.now - started
        // The reclaimer's thread drops the last references: these are the only others.
        if let old = replaced.take() {
            reclaimer.reclaim((old, leftovers.take()))
        }
        switch result {
        case .success(let snapshot):
            logger.info(
                "config reloaded",
                metadata: [
                    "trigger": "\(trigger)", "routes": "\(snapshot.resolver.router.routes.count)",
                    "rules": "\(snapshot.resolver.rewriter.rules.count)", "duration": "\(elapsed)",
                ])
            let restart = snapshot.config.settings.startOnlyChanges(since: startSettings)
            if !restart.isEmpty {
                logger.warning(
                    "settings changed that apply only at start: restart to apply",
                    metadata: ["settings": "\(restart.joined(separator: ", "))"])
            }
        case .failure(let issues):
            logger.error(
                "config reload failed; still serving the previous config",
                metadata: ["trigger": "\(trigger)", "errors": "\(issues.description)"])
        }
        return result
    }
}
