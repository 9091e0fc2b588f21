import SwitchboardCore

/// Picks the admin state store from the settings and the environment.
package enum AdminStores {
    /// The store `serve` uses: `SWITCHBOARD_STORE`, else `store` in `switchboard.yaml`: a
    /// `postgres://` (or `postgresql://`) URL for PostgreSQL, `file` or nothing for
    /// `data_dir/state.json`.
    /// - Throws: ``AdminStoreError`` for an unknown kind of store, or an unreachable database.
    package static func make(settings: ServerSettings, environment: [String: String]) throws(AdminStoreError) -> any AdminStateStore {
        let choice = environment["SWITCHBOARD_STORE"].flatMap { $0.isEmpty ? nil : $0 } ?? settings.store
        guard let choice, choice != "file" else { return StateStore(directory: settings.dataDir) }
        guard choice.hasPrefix("postgres://") || choice.hasPrefix("postgresql://") else {
            throw AdminStoreError(.failed, "store '\(choice)' is not 'file' or a postgres:// URL")
        }
        return try PostgresAdminStore(url: choice)
    }
}
