import ArgumentParser
import SwitchboardServer

/// `--config DIR`, shared by every subcommand.
struct ConfigOptions: ParsableArguments {
    @Option(name: .long, help: "The config directory (switchboard.yaml, routes.d/, rewrites.yaml).")
    var config: String = "./config"

    /// The snapshot `serve` would start with: the config plus the admin state of its store.
    ///
    /// - Throws: `ExitCode.badInput` after writing why to standard error, when it does not load.
    func loadSnapshot() throws -> Snapshot {
        do {
            return try SnapshotLoader.load(configDirectory: config).snapshot
        } catch {
            StandardError.write("switchboard: the config does not load:\n\(error)")
            throw ExitCode.badInput
        }
    }
}
