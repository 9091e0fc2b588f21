import Foundation
import Logging
import SwitchboardHTTP
import SwitchboardServer
import SwitchboardTestSupport
import Synchronization

/// The environment an in-process server reads its admin tokens from; a test changes it, then
/// reloads, as an operator changes a variable and sends `SIGHUP`.
final class TestEnvironment: Sendable {
    private let variables: Mutex<[String: String]>

    init(_ variables: [String: String]) {
        self.variables = Mutex(variables)
    }

    /// The variables as they are now.
    var current: [String: String] { variables.withLock { $0 } }

    /// Sets `name` to `value`, or unsets it when `value` is `nil`.
    func set(_ name: String, _ value: String?) {
        variables.withLock { $0[name] = value }
    }
}

/// A whole Switchboard (``SwitchboardApplication``: every service of `serve`) running in the
/// test process on a free loopback port, over a ``TestConfig``.
///
/// Signals are left alone (`signals: nil`): dispositions are process-wide and other suites
/// send signals to this process. Signal behaviour is tested with ``ServerProcess``.
final class InProcessServer: Sendable {
    let config: TestConfig
    let application: SwitchboardApplication
    let logs: CollectingLogHandler.Store
    /// What the server reads its admin tokens from (again at every reload).
    let environment: TestEnvironment
    private let task: Task<Void, any Error>

    var port: Int { application.server.boundPort }
    /// The admin listener's port, when `admin_listen` is set.
    var adminPort: Int? { application.adminServer?.boundPort }

    /// Starts the server and returns once it is serving and watching its config.
    /// - Parameter token: the admin token; `nil` leaves the variable unset (admin is 403).
    /// - Parameter environment: more environment variables (named admin tokens).
    /// - Parameter storeProbeInterval: how often a PostgreSQL store is probed.
    /// - Parameter listen: the public listener's address.
    init(
        config: TestConfig, token: String? = TestToken.admin, environment extra: [String: String] = [:], listen: String = "127.0.0.1:0",
        pollInterval: Duration = .milliseconds(200), storeProbeInterval: Duration = .milliseconds(500)
    ) async throws {
        self.config = config
        let (logger, logs) = CollectingLogHandler.logger()
        self.logs = logs
        var variables = extra
        if let token { variables["SWITCHBOARD_ADMIN_TOKEN"] = token }
        let environment = TestEnvironment(variables)
        self.environment = environment
        let application = try SwitchboardApplication(
            configDirectory: config.directory, listen: listen, environment: { environment.current },
            pollInterval: pollInterval, storeProbeInterval: storeProbeInterval, signals: nil, logger: logger)
        self.application = application
        task = Task { try await application.run() }
        // Generous: a start waits for threads of the cooperative pool, which other suites
        // running in parallel can hold for many seconds on a loaded machine.
        let started = try await eventually(timeout: .seconds(30)) {
            logs.all.contains { $0.message == "switchboard listening" }
        }
        guard started, application.server.boundPort != 0 else {
            await application.shutdown()
            throw TestSetupError("the in-process server did not start: \(await task.result)")
        }
    }

    deinit {
        task.cancel()
        application.server.stopNow()
        application.adminServer?.stopNow()
    }

    /// A new keep-alive connection.
    func client(timeout: Duration = .seconds(10)) throws -> HTTPTestClient {
        try HTTPTestClient(port: port, timeout: timeout)
    }

    /// A new keep-alive connection to the admin listener.
    func adminClient(timeout: Duration = .seconds(10)) throws -> HTTPTestClient {
        guard let adminPort else { throw TestSetupError("the server has no admin listener: set admin_listen") }
        return try HTTPTestClient(port: adminPort, timeout: timeout)
    }

    /// Shuts down gracefully and waits for `run()` to return.
    func stop() async throws {
        await application.shutdown()
        try await task.value
    }
}
