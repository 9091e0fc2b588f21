import ArgumentParser
import Foundation
import SwitchboardCore
import SwitchboardServer
import SwitchboardStore

/// `switchboard export --output DIR (--server URL | --data-dir DIR | --store postgres://…) [--config DIR]`:
/// the running admin state as config files, so that what was pushed at run time (a degrade
/// rule, a hotfix route) can be reviewed and kept in git.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write admin state as config files (routes, rules).",
        discussion: """
            The admin state comes from a running server (--server or $SWITCHBOARD_SERVER, with its admin token), \
            a file store (--data-dir) or PostgreSQL (--store). DIR must be new or empty. Admin rules go first \
            in DIR/rewrites.yaml (they run before the config's rules), admin routes to \
            DIR/routes.d/admin.MODULE.yaml; with --config, every other file of that directory is copied, so \
            that DIR is a whole config directory which, with an empty store, answers every URL as the \
            original config and admin state did. DIR is written only when the result loads. Exit status: \
            0 written, 2 bad input (a config that does not load, DIR not empty, a clash), 3 the server or \
            the database could not be reached or refused.
            """
    )

    @Option(help: ArgumentHelp("The directory to write (new or empty).", valueName: "dir"))
    var output: String

    @OptionGroup var server: AdminOptions

    @Option(name: .customLong("data-dir"), help: ArgumentHelp("Read the admin state from this data_dir (state.json).", valueName: "dir"))
    var dataDirectory: String?

    @Option(help: ArgumentHelp("Read the admin state from this PostgreSQL store.", valueName: "postgres-url"))
    var store: String?

    @Option(help: ArgumentHelp("Merge with this config directory (its routes, rules and settings).", valueName: "dir"))
    var config: String?

    func validate() throws {
        if dataDirectory != nil && store != nil { throw ValidationError("give one of --data-dir and --store, not both") }
        if (dataDirectory != nil || store != nil) && server.server != nil {
            throw ValidationError("give one of --server, --data-dir and --store")
        }
    }

    func run() async throws {
        do {
            let admin = try await readAdminState()
            let merged = try config.map { directory throws(ExportError) in
                do {
                    return try ConfigDirectory.load(from: directory)
                } catch {
                    throw .badInput("the config \(directory) does not load:\n\(error)")
                }
            }
            let export = try ConfigExport(admin: admin, config: merged)
            try export.write(to: output)
            print(export.summary(output))
        } catch {
            StandardError.write("switchboard export: \(error)")
            throw error.exitCode
        }
    }

    /// The admin state of the source the options name.
    private func readAdminState() async throws(ExportError) -> AdminState {
        if dataDirectory != nil || store != nil {
            if let dataDirectory {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: dataDirectory, isDirectory: &isDirectory), isDirectory.boolValue else {
                    throw .badInput("the data directory \(dataDirectory) does not exist")
                }
            }
            do {
                return try AdminStoreFactory.make(choice: store, dataDirectory: dataDirectory ?? ".").load()
            } catch {
                throw error.kind == .unavailable ? .unavailable("\(error)") : .badInput("\(error)")
            }
        }
        do {
            let state = try await ServerAdminState.read(from: try server.client())
            return AdminState(version: state.version, rules: state.rules, routes: state.routes)
        } catch {
            throw .admin(error)
        }
    }
}
