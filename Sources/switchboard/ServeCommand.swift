import ArgumentParser
import Logging
import SwitchboardServer

/// `switchboard serve [--config DIR] [--listen HOST:PORT]`.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve /resolve, /healthz, /metrics and the admin API; hot-reload the config directory.",
        discussion: "SIGHUP reloads the config; SIGTERM or SIGINT stops gracefully (exit 0)."
    )

    @OptionGroup var options: ConfigOptions

    @Option(help: "Listen address (host:port, port 0 picks a free port); overrides switchboard.yaml.")
    var listen: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    func run() async throws {
        var logger = Logger(label: "switchboard")
        logger.logLevel = logLevel
        let application: SwitchboardApplication
        do {
            application = try SwitchboardApplication(
                configDirectory: options.config, listen: listen, signals: await ProcessSignals.trap(), logger: logger)
        } catch {
            StandardError.write("switchboard: cannot start: \(error)")
            throw ExitCode(1)
        }
        try await application.run()
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
