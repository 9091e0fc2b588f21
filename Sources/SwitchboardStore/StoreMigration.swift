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
    }

    /// Copies `directory/state.json` into the database at `url` (migrating its schema first).
    /// - Parameter overwrite: replace admin state the database already holds.
    /// - Throws: ``Failure`` when the file cannot be read, the database is unreachable, or it
    ///   already holds admin state and `overwrite` is false.
    package static func copy(fromDirectory directory: String, toPostgres url: String, overwrite: Bool) throws(Failure) -> Report {
        guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") else {
            throw Failure(description: "--to must be a postgres:// URL, not '\(url)'")
        }
        do throws(AdminStoreError) {
            let source = FileAdminStore(directory: directory)
            var state = try source.load()
            let destination = try PostgresAdminStore(url: url)
            let existing = try destination.version()
            if existing != 0, !overwrite {
                throw AdminStoreError(
                    .failed, "\(destination.location) already holds admin state (version \(existing)); use --force to overwrite it")
            }
            // Replicas adopt only newer versions: an overwrite must move the version forward.
            if state.version <= existing { state.version = existing + 1 }
            try destination.commit(state, replacing: existing)
            return Report(
                version: state.version, rules: state.rules.count, routes: state.routes.count,
                historyEntries: state.history.count, destination: destination.location)
        } catch {
            throw Failure(description: error.message)
        }
    }
}
