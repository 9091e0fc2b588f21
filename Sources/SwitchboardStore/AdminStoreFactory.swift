/// Picks the admin store from the configured choice.
package enum AdminStoreFactory {
    /// The store named by `choice`: a `postgres://` (or `postgresql://`) URL for PostgreSQL,
    /// `file` or `nil` for `dataDirectory/state.json`.
    ///
    /// - Throws: ``AdminStoreError`` for an unknown kind of store, or an unreachable database.
    package static func make(choice: String?, dataDirectory: String) throws(AdminStoreError) -> any AdminStore {
        guard let choice, choice != "file" else { return FileAdminStore(directory: dataDirectory) }
        guard choice.hasPrefix("postgres://") || choice.hasPrefix("postgresql://") else {
            throw AdminStoreError(.failed, "store '\(choice)' is not 'file' or a postgres:// URL")
        }
        return try PostgresAdminStore(url: choice)
    }
}
