import ArgumentParser
import SwitchboardStore

/// `switchboard migrate-store --from DIR --to postgres://…`: copies the file store's admin
/// state (rules, routes, version, history) into PostgreSQL, for moving to several replicas.
struct MigrateStoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate-store",
        abstract: "Copy a file store's admin state into PostgreSQL.",
        discussion:
            "--from must hold admin state. The database must be empty (admin version 0) unless --force is given. Exit status: 0 copied, 2 bad input (no admin state, a database that holds some without --force), 3 the database cannot be reached."
    )

    @Option(name: .long, help: "The data_dir holding state.json.")
    var from: String

    @Option(name: .long, help: "The PostgreSQL URL (postgres://user@host:port/database).")
    var to: String

    @Flag(name: .long, help: "Overwrite a database that already holds admin state.")
    var force = false

    func run() throws {
        do {
            let report = try StoreMigration.copy(fromDirectory: from, toPostgres: to, overwrite: force)
            print(
                "copied admin state version \(report.version) (\(report.rules) rules, \(report.routes) routes, \(report.historyEntries) history entries) to \(report.destination)"
            )
        } catch {
            StandardError.write("switchboard: \(error)")
            throw error.isUnreachable ? ExitCode.serverUnavailable : ExitCode.badInput
        }
    }
}
