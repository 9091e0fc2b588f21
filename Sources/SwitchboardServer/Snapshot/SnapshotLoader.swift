import Foundation
import SwitchboardCore

/// Loads a snapshot the way `serve` starts: the config directory plus the admin state
/// persisted in its `data_dir` (read only).
public enum SnapshotLoader {
    /// Why loading failed: the config's issues, or an unreadable admin state.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The state store for a config: `data_dir` relative to the working directory.
    public static func stateStore(for settings: ServerSettings) -> StateStore {
        StateStore(directory: settings.dataDir)
    }

    public static func load(configDirectory: String) throws(Failure) -> Snapshot {
        let config: ConfigDirectory
        do {
            config = try ConfigDirectory.load(from: configDirectory)
        } catch {
            throw Failure(description: error.description)
        }
        let admin: AdminState
        do {
            admin = try stateStore(for: config.settings).load()
        } catch {
            throw Failure(description: error.description)
        }
        do {
            return try Snapshot.build(config: config, admin: admin)
        } catch {
            throw Failure(description: error.description)
        }
    }
}
