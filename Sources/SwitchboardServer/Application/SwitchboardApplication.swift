import Foundation
import Logging
import ServiceLifecycle
import SwitchboardCore
import SwitchboardHTTP
import SwitchboardStore
import UnixSignals

/// `switchboard serve`: everything a running Switchboard is, assembled once and run as one
/// `ServiceGroup`.
///
/// The services, in the order the group starts them (it shuts them down in reverse):
/// - ``MemoryReclaimer``: frees what reloads and admin changes replaced;
/// - the `BlockingExecutor`: runs what blocks (the requests other than `GET` and `HEAD`, the
///   store probe) off libmicrohttpd's threads and the cooperative pool;
/// - ``AnalyticsService``: folds and flushes the analytics counts (when `analytics.enabled`);
/// - ``StoreFollower``: follows a shared (PostgreSQL) admin store, when there is one, and
///   ``StoreProbe`` reports whether it answers;
/// - ``ConfigWatcher``: asks for a reload when the config directory or a TLS certificate changes;
/// - ``ReloadService``: runs the reloads the watcher and `SIGHUP` ask for;
/// - the `HTTPServer`s: the public listener and, when `admin_listen` is set, the admin
///   listener, each answering through the one ``SwitchboardAPI`` the endpoints its
///   ``ListenerScope`` names;
/// - ``ReadinessService``: says when the whole is ready, and stops being ready first.
///
/// `SIGTERM` and `SIGINT` shut the group down gracefully; `SIGHUP` reloads the config.
package final class SwitchboardApplication: Sendable {
    /// Why the server could not start.
    package struct StartupError: Error, CustomStringConvertible {
        package let description: String
    }

    /// What the endpoints use: the snapshot holder, the metrics, the writers.
    package let context: ServerContext
    /// The HTTP server of `listen`, bound already.
    package let server: HTTPServer
    /// The HTTP server of `admin_listen`, bound already; `nil` when the one listener serves all.
    package let adminServer: HTTPServer?
    private let group: ServiceGroup
    private let logger: Logger

    /// Loads the config and the admin state, builds the first snapshot and starts the HTTP
    /// server: requests are answered from here on, while ``run()`` runs the other services
    /// (and says the server is ready).
    ///
    /// - Parameters:
    ///   - configDirectory: the config directory.
    ///   - listen: overrides `listen` from `switchboard.yaml`.
    ///   - drainSeconds: overrides `drain_seconds` from `switchboard.yaml`.
    ///   - environment: where admin tokens and `SWITCHBOARD_STORE` are read; read again at every
    ///     reload for the tokens, so that a rotated token applies without a restart.
    ///   - pollInterval: how often the config directory is checked even without inotify events.
    ///   - storeProbeInterval: how often a shared admin store is probed (``StoreProbe``).
    ///   - signals: the process's signals, trapped, when they are this server's (`nil` when
    ///     several servers share a process, as in tests: dispositions are process-wide).
    ///   - clock: the time for conditional rules, in seconds since the Unix epoch.
    /// - Throws: ``StartupError`` naming every problem (a broken config or a corrupt state file
    ///   stops startup; the state file is never discarded), or the HTTP server's error.
    package init(
        configDirectory: String, listen: String?, drainSeconds: Int? = nil,
        environment: @escaping @Sendable () -> [String: String] = { ProcessInfo.processInfo.environment },
        pollInterval: Duration = .seconds(1), storeProbeInterval: Duration = .seconds(10), signals: ProcessSignals?,
        logger: Logger,
        clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) throws {
        let loaded: SnapshotLoader.Loaded
        do {
            loaded = try SnapshotLoader.load(configDirectory: configDirectory, environment: environment())
        } catch {
            switch error.step {
            case .config:
                throw StartupError(description: "the config in \(configDirectory) does not load:\n\(error)")
            case .adminState:
                throw StartupError(description: "the admin state cannot be loaded: \(error)")
            case .build:
                throw StartupError(description: "the config and the admin state do not build:\n\(error)")
            }
        }
        let settings = loaded.snapshot.config.settings
        var listeners = settings
        listeners.listen = listen ?? settings.listen
        if let problem = listeners.listenersProblem { throw StartupError(description: problem) }
        let analyticsStore: (any AnalyticsStore)?
        do {
            analyticsStore =
                settings.analytics.enabled
                ? try AnalyticsStoreFactory.open(
                    choice: settings.store, dataDirectory: settings.dataDir,
                    bucketSeconds: settings.analytics.bucket.seconds, orphansPerBucket: settings.analytics.orphansPerBucket)
                : nil
        } catch {
            throw StartupError(description: "the analytics store cannot be opened: \(error)")
        }
        let certificates: ListenerCertificates
        do {
            certificates = try ListenerCertificates(settings: settings)
        } catch {
            throw StartupError(description: "the TLS certificates cannot be served:\n\(error)")
        }
        let parts: ServingParts
        do {
            parts = try ServingParts(
                loaded: loaded, configDirectory: configDirectory, environment: environment, logger: logger, clock: clock,
                analyticsStore: analyticsStore, certificates: certificates)
        } catch {
            throw StartupError(description: "an admin token is refused:\n\(error)")
        }
        let (holder, writer, api) = (parts.holder, parts.writer, parts.api)  // what the closures below keep
        let executor = BlockingExecutor(
            name: "sb-blocking", threads: Self.blockingThreads, queueLimit: Self.blockingQueueLimit)
        let offWorker = OffWorkerPolicy(executor: executor, appliesTo: SwitchboardAPI.runsOffWorker)
        var publicConfiguration = try Self.httpConfiguration(settings: settings, listen: listen)
        publicConfiguration.tls = certificates.publicCertificate
        let adminConfiguration = try settings.adminListen.map { adminListen in
            try Self.adminHTTPConfiguration(
                listen: adminListen, tls: certificates.adminCertificate, beside: publicConfiguration)
        }
        let publicScope: ListenerScope = adminConfiguration == nil ? .all : .publicOnly
        let server = try HTTPServer(
            configuration: publicConfiguration, logger: logger, refusalResponder: SwitchboardAPI.refusalResponse,
            offWorker: offWorker
        ) { api.handle($0, body: &$1, scope: publicScope) }
        let adminServer = try adminConfiguration.map { configuration in
            try HTTPServer(
                configuration: configuration, logger: logger, refusalResponder: SwitchboardAPI.refusalResponse,
                offWorker: offWorker
            ) { api.handle($0, body: &$1, scope: .all) }
        }
        try server.start()
        do {
            try adminServer?.start()
        } catch {
            server.stopNow()
            throw error
        }
        if adminServer == nil, !parts.context.adminTokens.current.isEmpty,
            !Self.isLoopback(host: publicConfiguration.host)
        {
            logger.warning(
                """
                the admin API answers on a listener that is not loopback: set admin_listen to a loopback or \
                internal address to keep /admin, /console and /metrics off the public port
                """,
                metadata: ["listen": "\(publicConfiguration.listenDescription)"])
        }

        let reloads = ReloadService(
            reloader: parts.reloader, hangups: signals?.hangups, logger: logger)
        // A renewed certificate is reloaded like a config edit.
        let watcher = ConfigWatcher(
            directory: configDirectory, otherFiles: certificates.files, pollInterval: pollInterval, logger: logger
        ) {
            reloads.request(.watch)
        }
        let drain = Duration.seconds(drainSeconds ?? settings.drainSeconds)
        let readinessService = ReadinessService(readiness: parts.readiness, drainPeriod: drain, logger: logger) {
            [server, adminServer, logger] in
            let snapshot = holder.current
            var addresses: Logger.Metadata = ["address": "\(server.configuration.host):\(server.boundPort)"]
            if let adminServer {
                addresses["admin_address"] = "\(adminServer.configuration.host):\(adminServer.boundPort)"
            }
            logger.notice(
                "switchboard listening",
                metadata: addresses.merging([
                    "routes": "\(snapshot.resolver.router.routes.count)",
                    "rules": "\(snapshot.resolver.rewriter.rules.count)",
                    "admin_version": "\(snapshot.admin.version)",
                    "store": "\(writer.store.location)",
                ]) { $1 })
        }
        // The executor shuts down after everything that uses it: the HTTP server and the probe.
        var services: [any Service] = [parts.reclaimer, executor]
        // Before the HTTP server, so that it stops after it and flushes the last requests.
        if let analytics = parts.context.analytics { services.append(AnalyticsService(analytics: analytics, logger: logger)) }
        if loaded.store.isShared {
            services += [
                StoreFollower(writer: writer, logger: logger),
                StoreProbe(
                    store: loaded.store, metrics: parts.metrics, executor: executor, interval: storeProbeInterval,
                    logger: logger),
            ]
        }
        // Both listeners serve through the drain period; then the admin listener stops, then the public one.
        services += [watcher, reloads, server] + (adminServer.map { [$0] } ?? []) + [readinessService]
        self.group = ServiceGroup(
            services: services, gracefulShutdownSignals: signals == nil ? [] : ProcessSignals.shutdown, logger: logger)
        self.context = parts.context
        self.server = server
        self.adminServer = adminServer
        self.logger = logger
        // The startup config is gone by now: hand its memory back before serving.
        MemoryReclaimer.returnFreedMemory()
    }

    /// Serves until a graceful shutdown (`SIGTERM`/`SIGINT`, or ``shutdown()``) has finished.
    package func run() async throws {
        try await group.run()
        logger.notice("switchboard stopped")
    }

    /// Starts a graceful shutdown: stop being ready, let requests in flight finish, stop.
    package func shutdown() async {
        await group.triggerGracefulShutdown()
    }

    /// Threads of the executor that runs blocking work (admin writes, reloads, store probes):
    /// admin writes and reloads take turns on the snapshot anyway, so a few threads suffice,
    /// and a frozen store holds no more than these.
    private static let blockingThreads = 4
    /// Jobs that may wait for one of those threads; past them a request gets `503 server_busy`
    /// at once.
    private static let blockingQueueLimit = 64

    /// Connections the admin listener serves at once: operators, probes and Prometheus need a
    /// few, and a limit of its own keeps a flood of the public port from reaching them.
    static let adminMaxConnections = 64
    /// Worker threads of the admin listener.
    static let adminThreads = 2

    /// The admin listener's settings: `admin_listen` and `admin_tls`, its own connection limits
    /// and threads, and the public listener's request limits and timeouts.
    private static func adminHTTPConfiguration(
        listen: String, tls: ServedCertificate?, beside publicConfiguration: HTTPServerConfiguration
    ) throws -> HTTPServerConfiguration {
        var configuration = publicConfiguration
        let address = try HTTPServerConfiguration.parseListenAddress(listen)
        (configuration.host, configuration.port) = (address.host, address.port)
        configuration.tls = tls
        configuration.maxConnections = adminMaxConnections
        configuration.maxConnectionsPerClient = adminMaxConnections
        configuration.threadPoolSize = adminThreads
        return configuration
    }

    /// Whether `host` is a loopback address (`127.0.0.0/8`, `::1`, `localhost`).
    static func isLoopback(host: String) -> Bool {
        let numeric = HTTPServerConfiguration.numericHost(host)
        return numeric.hasPrefix("127.") || numeric == "::1"
    }

    /// The HTTP settings of `switchboard.yaml`, with `listen` overridden when given.
    private static func httpConfiguration(settings: ServerSettings, listen: String?) throws -> HTTPServerConfiguration {
        var configuration = try HTTPServerConfiguration(listen: listen ?? settings.listen)
        configuration.threadPoolSize =
            settings.threads ?? HTTPServerConfiguration.defaultThreadPoolSize(maxConnections: settings.limits.maxConnections)
        configuration.maxConnections = settings.limits.maxConnections
        configuration.maxConnectionsPerClient = settings.limits.maxConnectionsPerClient
        configuration.requestTimeout = .seconds(settings.limits.requestTimeoutSeconds)
        // Probes are answered even when clients fill the connection limits (design.md §7).
        configuration.probePaths = ["/healthz", "/livez", "/readyz"]
        configuration.connectionTimeout = .seconds(settings.limits.connectionTimeoutSeconds)
        configuration.maxURLLength = settings.limits.maxURLBytes
        configuration.maxBodySize = settings.limits.maxBodyBytes
        configuration.shutdownGrace = .seconds(settings.shutdownGraceSeconds)
        configuration.connectionMemoryLimit = max(
            configuration.connectionMemoryLimit, settings.limits.maxURLBytes * 2 + 8 * 1024)
        return configuration
    }
}
