import ArgumentParser
import SwitchboardServer

/// The `switchboard` command line: `serve`, `resolve`, `check`, `routes`, `diff`, `codegen`, `migrate-store`,
/// `healthcheck`.
@main
struct SwitchboardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchboard",
        abstract: "Deep-link routing service: resolve app links, rewrite them, serve the answers over HTTP.",
        version: SwitchboardVersion.description,
        subcommands: [
            ServeCommand.self, ResolveCommand.self, CheckCommand.self, RoutesCommand.self, DiffCommand.self, CodegenCommand.self,
            MigrateStoreCommand.self, HealthcheckCommand.self,
        ]
    )
}
