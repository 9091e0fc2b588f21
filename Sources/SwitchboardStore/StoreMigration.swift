import Foundation

/// Moves the admin state from the file store to PostgreSQL (`switchboard migrate-store`).
package enum StoreMigration {
    /// What was copied.
    package struct Report: Sendable {
        package let version: Int
        package let rules: Int
        package let routes: Int
        package let historyEntries: Int
        /// The database, without credentials.
        package let destination: String
    }

    /// Why the copy was refused or failed.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package let description: String
        /// Whether the database could not be reached (as opposed to a refused or failed copy).
        package var isUnreachable = false
    }

    /// Copies `directory/state.json` into the database at `url` (migrating its schema first).
    /// - Parameter overwrite: replace admin state the database already holds.
    /// - Throws: ``Failure`` when `directory` does not exist or holds no admin state (nothing
    ///   is written then), the file cannot be read, the database is unreachable, or it already
    ///   holds admin state and `overwrite` is false.
    package static func copy(fromDirectory directory: String, toPostgres url: String, overwrite: Bool) throws(Failure) -> Report {
        guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") else {
            throw Failure(description: "--to must be a postgres:// URL, not '\(url)'")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw Failure(description: "--from \(directory) does not exist; give the data_dir that holds state.json")
        }
        guard isDirectory.boolValue else {
            throw Failure(description: "--from \(directory) is not a directory; give the data_dir that holds state.json")
        }
        do throws(AdminStoreError) {
            let source = FileAdminStore(directory: directory)
            var state = try source.load()
            // The file store reads a directory without state as the empty state: copying it
            // would store an empty state as version 1, and the real copy would then need --force.
            guard state.version > 0 else {
                throw AdminStoreError(
                    .failed,
                    "--from \(directory) holds no admin state (no state.json or state.log); nothing was copied. "
                        + "Give the data_dir the server ran with; a database left empty starts with no admin state")
            }
            let destination = try PostgresAdminStore(url: url)
            let existing = try destination.version()
            if existing != 0, !overwrite {
                throw AdminStoreError(
                    .failed, "\(destination.location) already holds admin state (version \(existing)); use --force to overwrite it")
            }
            // Replicas adopt only newer versions: an overwrite must move the version forward,
            // and the history with it, so that every version it lists can be rolled back to.
            if state.version <= existing { state = state.renumbered(toVersion: existing + 1) }
            try destination.commit(state, replacing: existing)
            return Report(
                version: state.version, rules: state.rules.count, routes: state.routes.count,
                historyEntries: state.history.count, destination: destination.location)
        } catch {
            throw Failure(description: error.message, isUnreachable: error.kind == .unavailable)
        }
    }
}
