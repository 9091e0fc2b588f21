import Foundation
import Logging
import SwitchboardCore
import SwitchboardStore

/// What answers requests, wired from a loaded config: the snapshot holder, the metrics, the
/// reloader and admin writer, the endpoints' ``ServerContext`` and the ``SwitchboardAPI``.
///
/// `switchboard serve` puts an HTTP server in front of ``api`` and runs the services around
/// it; the API-path benchmark calls ``api`` in process. Both get the same wiring from here.
package struct ServingParts: Sendable {
    /// The current snapshot, swapped by reloads and admin writes.
    package let holder: SnapshotHolder
    /// The counters `/metrics` renders.
    package let metrics: Metrics
    /// Frees what reloads and admin writes replaced (a service of `switchboard serve`).
    package let reclaimer: MemoryReclaimer
    /// Rebuilds the snapshot from the config directory.
    package let reloader: Reloader
    /// Applies admin changes to the store and the snapshot.
    package let writer: AdminWriter
    /// Whether the server says it is ready (`/readyz`).
    package let readiness: Readiness
    /// What the endpoints read and write through.
    package let context: ServerContext
    /// The endpoints: one call per HTTP request.
    package let api: SwitchboardAPI

    /// Wires the parts around `loaded`'s snapshot and store.
    ///
    /// - Throws: ``AdminTokenErrors`` when an admin token is weak or its file cannot be read.
    ///
    /// - Parameters:
    ///   - environment: where admin tokens and the settings of the environment are read (again
    ///     at every reload).
    ///   - clock: the time for conditional rules, in seconds since the Unix epoch.
    ///   - analyticsStore: where analytics are kept (`nil`: in memory only).
    ///   - certificates: the TLS listeners' certificates, which every reload reads again.
    package init(
        loaded: SnapshotLoader.Loaded, configDirectory: String, environment: @escaping @Sendable () -> [String: String],
        logger: Logger, clock: @escaping @Sendable () -> Double, analyticsStore: (any AnalyticsStore)? = nil,
        certificates: ListenerCertificates = ListenerCertificates()
    ) throws(AdminTokenErrors) {
        let settings = loaded.snapshot.config.settings
        metrics = Metrics(routeSeriesLimit: settings.metricsRouteSeries)
        metrics.recordSnapshot(loaded.snapshot)
        holder = SnapshotHolder(loaded.snapshot)
        reclaimer = MemoryReclaimer()
        let tokens = try AdminTokenHolder(settings: settings, environment: environment, logger: logger)
        reloader = Reloader(
            configDirectory: configDirectory, holder: holder, metrics: metrics, reclaimer: reclaimer, adminTokens: tokens,
            certificates: certificates, environment: environment, logger: logger)
        writer = AdminWriter(holder: holder, store: loaded.store, metrics: metrics, reclaimer: reclaimer, logger: logger)
        readiness = Readiness()
        context = ServerContext(
            holder: holder, metrics: metrics, reloader: reloader, adminWriter: writer,
            adminTokens: tokens, clock: clock,
            startedAt: Date(), readiness: readiness, trafficSample: TrafficSample(settings: settings.trafficSample),
            analytics: settings.analytics.enabled
                ? Analytics(
                    settings: settings.analytics, store: analyticsStore,
                    keepQueryValues: settings.trafficSample.keepQueryValues, clock: clock)
                : nil,
            logger: logger)
        api = SwitchboardAPI(
            context: context, accessLog: settings.accessLog, accessLogQuery: settings.accessLogQuery,
            openAPIDocument: PackageResources.openapi_yaml)
    }
}
