import Logging
import ServiceLifecycle
import SwitchboardCore
import SwitchboardTestSupport
import Testing

@testable import SwitchboardServer

/// The watcher and `SIGHUP` feed one typed trigger; the reload service runs what they ask for,
/// and ends with its service group.
@Suite("Reload service", .blockingIO)
struct ReloadServiceTests {
    @Test("each request runs the one reload pipeline, named by its trigger; the service ends with its group")
    func requestsRunReloads() async throws {
        let config = try TestConfig.demo()
        let (logger, _) = CollectingLogHandler.logger()
        let loaded = try SnapshotLoader.load(configDirectory: config.directory, environment: [:])
        let holder = SnapshotHolder(loaded.snapshot)
        let reloader = Reloader(
            configDirectory: config.directory, holder: holder, metrics: Metrics(), reclaimer: MemoryReclaimer(),
            logger: logger)
        let service = ReloadService(reloader: reloader, hangups: nil, logger: logger)
        let group = ServiceGroup(services: [service], logger: logger)
        let running = Task(executorPreference: DispatchQueueTaskExecutor(label: "switchboard.tests.reloads")) {
            try await group.run()
        }
        #expect(reloader.status.trigger == .startup)

        try config.write("routes.d/promo.yaml", IntegrationTests.HotReloadTests.flashRoutes)
        service.request(.watch)
        #expect(try await eventually(timeout: .seconds(30)) { reloader.status.trigger == .watch })
        #expect(reloader.status.succeeded)
        // The status is brought up to date just before the new snapshot is swapped in.
        #expect(try await eventually(timeout: .seconds(30)) { holder.current.resolver.router.routeIndex(id: "promo.flash") != nil })

        service.request(.signal)
        #expect(try await eventually(timeout: .seconds(30)) { reloader.status.trigger == .signal })
        #expect(ReloadTrigger.signal.description == "SIGHUP")

        await group.triggerGracefulShutdown()
        try await running.value
    }
}
