import Foundation
import SwitchboardCore

/// Loads a snapshot the way `serve` starts: the config directory plus the admin state
/// persisted in its `data_dir` (read only).
public enum SnapshotLoader {
    /// Why loading failed: the config's issues, or an unreadable admin state.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Loads the config and the admin state from its store (`SWITCHBOARD_STORE` or `store`:
    /// PostgreSQL, else `data_dir` relative to the working directory).
    public static func load(
        configDirectory: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(Failure) -> Snapshot {
        let config: ConfigDirectory
        do {
            config = try ConfigDirectory.load(from: configDirectory)
        } catch {
            throw Failure(description: error.description)
        }
        let admin: AdminState
        do {
            admin = try AdminStores.make(settings: config.settings, environment: environment).load()
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
