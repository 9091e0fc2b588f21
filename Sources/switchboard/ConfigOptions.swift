import ArgumentParser
import Foundation
import SwitchboardServer

/// `--config DIR`, shared by every subcommand.
struct ConfigOptions: ParsableArguments {
    @Option(
        name: .customLong("config"),
        help: "The config directory (switchboard.yaml, routes.d/, rewrites.yaml); else SWITCHBOARD_CONFIG, else ./config.")
    var configFlag: String?

    /// The config directory: the flag, else `SWITCHBOARD_CONFIG`, else `./config` (a flag wins over
    /// the environment, as for every setting: docs/operations.md "Settings from the environment").
    var config: String {
        configFlag ?? ProcessEnvironment.value(of: "SWITCHBOARD_CONFIG") ?? "./config"
    }

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
