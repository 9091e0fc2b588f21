import Foundation
import SwitchboardCore
import SwitchboardStore

/// Loads the first snapshot: the config directory plus the admin state from its store, the
/// way `serve` starts and `resolve` answers.
package enum SnapshotLoader {
    /// Why loading failed, and at which step.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// The step that failed.
        package enum Step: Sendable {
            /// Reading the config directory.
            case config
            /// Opening the admin store or reading the admin state.
            case adminState
            /// Building the routes and rules of both together.
            case build
        }

        package let step: Step
        package let description: String
    }

    /// The first snapshot and the store its admin state came from.
    package struct Loaded: Sendable {
        package let snapshot: Snapshot
        package let store: any AdminStore
    }

    /// Loads the config and the admin state from its store (`SWITCHBOARD_STORE`, else `store`
    /// in `switchboard.yaml`: PostgreSQL, else `data_dir` relative to the working directory).
    package static func load(
        configDirectory: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(Failure) -> Loaded {
        let config: ConfigDirectory
        do {
            config = try ConfigDirectory.load(from: configDirectory, environment: environment)
        } catch {
            throw Failure(step: .config, description: error.description)
        }
        let store: any AdminStore
        let admin: AdminState
        do {
            store = try AdminStoreFactory.make(
                choice: config.settings.store, dataDirectory: config.settings.dataDir)
            admin = try store.load()
        } catch {
            throw Failure(step: .adminState, description: error.description)
        }
        do {
            return Loaded(snapshot: try Snapshot.build(config: config, admin: admin), store: store)
        } catch {
            throw Failure(step: .build, description: error.description)
        }
    }
}
