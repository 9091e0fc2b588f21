import ArgumentParser
import Logging
import SwitchboardServer

/// `switchboard serve [--config DIR] [--listen HOST:PORT]`.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the API; hot-reload the config directory.",
        discussion: """
            Also /healthz, /livez, /readyz, /metrics and the console. SIGHUP reloads the config. SIGTERM or SIGINT stops gracefully (exit 0): /readyz answers 503 at once, \
            requests are served for drain_seconds more, then the listener closes and requests in flight get \
            shutdown_grace_seconds to finish.
            """
    )

    @OptionGroup var options: ConfigOptions

    @Option(help: "Listen address (host:port, port 0 picks a free port); overrides SWITCHBOARD_LISTEN and listen.")
    var listen: String?

    @Option(
        help: ArgumentHelp(
            "Seconds to keep serving, not ready, after SIGTERM before the listener closes; overrides SWITCHBOARD_DRAIN_SECONDS and drain_seconds.",
            valueName: "seconds"))
    var drainSeconds: Int?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical; else SWITCHBOARD_LOG_LEVEL, else info.")
    var logLevel: Logger.Level?

    @Option(
        help: ArgumentHelp(
            "Log format: text or json (one JSON object per line); overrides SWITCHBOARD_LOG_FORMAT and log_format.",
            valueName: "format"))
    var logFormat: ServerSettings.LogFormat?

    func validate() throws {
        let range = ServerSettings.shutdownSecondsRange
        if let drainSeconds, !range.contains(drainSeconds) {
            throw ValidationError("--drain-seconds must be between \(range.lowerBound) and \(range.upperBound)")
        }
    }

    func run() async throws {
        let environment = ProcessEnvironment.all
        let format =
            logFormat ?? ServerSettings.peek(configDirectory: options.config, environment: environment)?.logFormat ?? .text
        var logger =
            format == .json ? Logger(label: "switchboard", factory: { JSONLogHandler(label: $0) }) : Logger(label: "switchboard")
        logger.logLevel = try logLevel ?? Self.environmentLogLevel() ?? .info
        let application: SwitchboardApplication
        do {
            application = try SwitchboardApplication(
                configDirectory: options.config, listen: listen, drainSeconds: drainSeconds, signals: await ProcessSignals.trap(),
                logger: logger)
        } catch {
            StandardError.write("switchboard: cannot start: \(error)")
            throw ExitCode.badInput
        }
        try await application.run()
    }
}

extension ServeCommand {
    /// `SWITCHBOARD_LOG_LEVEL`, when set.
    ///
    /// - Throws: `ExitCode(2)` after saying why, for a value that is not a level.
    static func environmentLogLevel() throws -> Logger.Level? {
        guard let text = ProcessEnvironment.value(of: "SWITCHBOARD_LOG_LEVEL") else { return nil }
        guard let level = Logger.Level(rawValue: text) else {
            let levels = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
            StandardError.write("switchboard: SWITCHBOARD_LOG_LEVEL is '\(text)'; use one of \(levels)")
            throw ExitCode(2)
        }
        return level
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

extension ServerSettings.LogFormat: ExpressibleByArgument {}
