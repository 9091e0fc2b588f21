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

    @Option(help: "Listen address (host:port, port 0 picks a free port); overrides switchboard.yaml.")
    var listen: String?

    @Option(
        help: ArgumentHelp(
            "Seconds to keep serving, not ready, after SIGTERM before the listener closes; overrides drain_seconds.",
            valueName: "seconds"))
    var drainSeconds: Int?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    @Option(
        help: ArgumentHelp(
            "Log format: text or json (one JSON object per line); overrides log_format.", valueName: "format"))
    var logFormat: ServerSettings.LogFormat?

    func validate() throws {
        let range = ServerSettings.shutdownSecondsRange
        if let drainSeconds, !range.contains(drainSeconds) {
            throw ValidationError("--drain-seconds must be between \(range.lowerBound) and \(range.upperBound)")
        }
    }

    func run() async throws {
        let format = logFormat ?? ServerSettings.peek(configDirectory: options.config)?.logFormat ?? .text
        var logger =
            format == .json ? Logger(label: "switchboard", factory: { JSONLogHandler(label: $0) }) : Logger(label: "switchboard")
        logger.logLevel = logLevel
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

extension Logger.Level: @retroactive ExpressibleByArgument {}

extension ServerSettings.LogFormat: ExpressibleByArgument {}
