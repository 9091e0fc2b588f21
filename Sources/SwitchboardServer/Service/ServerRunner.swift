import Foundation
import Logging
import SwitchboardCore

/// `switchboard serve`: the service, its HTTP server, the config watcher and the signal
/// handlers, started together and shut down gracefully.
package final class ServerRunner: Sendable {
    package let service: SwitchboardService
    package let server: HTTPServer
    private let watcher: ConfigWatcher
    /// Follows the shared PostgreSQL store, when the admin state lives there.
    private let storeListener: PostgresStateListener?
    /// `nil` when the caller handles signals itself (e.g. a test running several servers).
    private let signals: SignalHandler?
    private let logger: Logger

    /// Loads everything and binds the socket; nothing is served until ``run()``.
    ///
    /// - Parameters:
    ///   - configDirectory: the config directory.
    ///   - listen: overrides `listen` from `switchboard.yaml`.
    ///   - pollInterval: how often the config directory is checked even without inotify events.
    ///   - handlesSignals: whether ``run()`` reacts to SIGTERM/SIGINT/SIGHUP. Signal dispositions
    ///     are process-wide: pass `false` when several runners share a process (tests), so
    ///     that stopping one does not restore the default (fatal) action for the others.
    package init(
        configDirectory: String, listen: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
        pollInterval: Duration = .seconds(1), handlesSignals: Bool = true, logger: Logger
    ) throws {
        let service = try SwitchboardService(configDirectory: configDirectory, environment: environment, logger: logger)
        let settings = service.snapshot.config.settings
        var configuration = try HTTPServerConfiguration(listen: listen ?? settings.listen)
        configuration.threadPoolSize = settings.threads ?? HTTPServerConfiguration.defaultThreadPoolSize
        configuration.maxConnections = settings.limits.maxConnections
        configuration.connectionTimeout = .seconds(settings.limits.connectionTimeoutSeconds)
        configuration.maxURLLength = settings.limits.maxURLBytes
        configuration.maxBodySize = settings.limits.maxBodyBytes
        configuration.connectionMemoryLimit = max(configuration.connectionMemoryLimit, settings.limits.maxURLBytes * 2 + 16 * 1024)
        let handler = APIHandler(
            service: service, accessLog: settings.accessLog, openAPIDocument: PackageResources.openapi_yaml)
        self.service = service
        self.logger = logger
        self.server = try HTTPServer(configuration: configuration, logger: logger) { handler.handle($0) }
        self.storeListener = (service.store as? PostgresAdminStore).map { store in
            PostgresStateListener(url: store.url, logger: logger) { service.syncFromStore() }
        }
        self.watcher = ConfigWatcher(directory: configDirectory, pollInterval: pollInterval, logger: logger) {
            service.reload(trigger: "watch")
        }
        let server = self.server
        self.signals =
            handlesSignals
            ? SignalHandler(
                logger: logger,
                onShutdown: { _ in server.shutdown(grace: .seconds(10)) },
                onReload: { service.reload(trigger: "SIGHUP") })
            : nil
    }

    /// Starts serving; returns after a graceful shutdown (SIGTERM/SIGINT or ``shutdown()``).
    package func run() async throws {
        signals?.start()
        try server.start()
        watcher.start()
        storeListener?.start()
        logListening()
        MemoryReclaimer.returnFreedMemory()
        await server.waitUntilShutdown()
        watcher.stop()
        storeListener?.stop()
        signals?.stop()
        logger.notice("switchboard stopped")
    }

    /// Logs the start. A function of its own, so that the first snapshot is not kept alive
    /// (a whole route table) by `run()`'s async frame until shutdown, after reloads replaced it.
    private func logListening() {
        let snapshot = service.snapshot
        logger.notice(
            "switchboard listening",
            metadata: [
                "address": "\(server.configuration.host):\(server.boundPort)",
                "routes": "\(snapshot.resolver.router.routes.count)",
                "rules": "\(snapshot.resolver.rewriter.rules.count)",
                "admin_version": "\(snapshot.admin.version)",
                "store": "\(service.store.location)",
            ])
    }

    /// Stops accepting, lets in-flight requests finish, then stops.
    package func shutdown() {
        server.shutdown(grace: .seconds(10))
    }
}
