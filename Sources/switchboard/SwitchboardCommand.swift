import ArgumentParser
import SwitchboardServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `switchboard` command line: `serve`, `resolve`, `check`, `routes`, `diff`, `codegen`,
/// `migrate-store`, `admin`, `export`, `applinks`, `healthcheck`.
@main
struct SwitchboardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchboard",
        abstract: "Deep-link routing service: resolve app links, rewrite them, serve the answers over HTTP.",
        discussion: """
            Exit status, for every command: 0 success, 1 the command found problems (a check failed, a diff \
            is not empty, a URL matched nothing), 2 bad input or usage, 3 the server could not be reached \
            or refused. Shell completion: switchboard --generate-completion-script bash|zsh|fish.
            """,
        version: SwitchboardVersion.description,
        subcommands: [
            ServeCommand.self, ResolveCommand.self, CheckCommand.self, RoutesCommand.self, DiffCommand.self, CodegenCommand.self,
            MigrateStoreCommand.self, AdminCommand.self, ExportCommand.self, AppLinksCommand.self,
            HealthcheckCommand.self,
        ]
    )

    /// Runs the command the arguments name, and ends the process with the status of the one
    /// exit-status rule (``ExitCode/status(for:of:)``), argument-parser's usage errors included.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            let message = fullMessage(for: error)
            let status = ExitCode.status(for: error, of: self)
            if !message.isEmpty {
                if status == .success { print(message) } else { StandardError.write(message) }
            }
            #if canImport(Glibc)
                Glibc.exit(status.rawValue)
            #else
                Darwin.exit(status.rawValue)
            #endif
        }
    }
}
