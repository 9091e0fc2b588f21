/// Where the admin state (rules, routes, version, history) lives: the file in `data_dir`
/// (``StateStore``, the default) or PostgreSQL shared by replicas (``PostgresAdminStore``).
///
/// The store is the authority on versions: ``commit(_:replacing:)`` writes only if the stored
/// version is still the one the change was made from, so two replicas cannot both win.
package protocol AdminStateStore: Sendable {
    /// The stored state (the empty state when nothing was ever stored).
    func load() throws(AdminStoreError) -> AdminState

    /// Stores `state` durably, only if the stored version is `expectedVersion`; returns once
    /// it is durable. Throws ``AdminStoreError/Kind/versionConflict`` when another writer got
    /// there first, ``AdminStoreError/Kind/unavailable`` when the store cannot be reached.
    func commit(_ state: AdminState, replacing expectedVersion: Int) throws(AdminStoreError)

    /// A short description for logs and `/admin/status` (`file /data/state.json`, `postgres host:port/db`).
    var location: String { get }
}

/// Why the admin state could not be read or written.
package struct AdminStoreError: Error, Sendable, CustomStringConvertible {
    package enum Kind: Sendable {
        /// Another writer committed first (HTTP 412).
        case versionConflict
        /// The store cannot be reached (HTTP 503); retry later.
        case unavailable
        /// Reading or writing failed otherwise (a corrupt document, a full disk).
        case failed
    }

    package let kind: Kind
    package let message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package var description: String { message }
}

extension StateStore: AdminStateStore {
    package var location: String { "file \(path)" }

    package func load() throws(AdminStoreError) -> AdminState {
        do {
            return try loadFile()
        } catch {
            throw AdminStoreError(.failed, error.message)
        }
    }

    /// One process owns the file, and the service serialises its writes, so the version check
    /// happens in memory before this is called.
    package func commit(_ state: AdminState, replacing expectedVersion: Int) throws(AdminStoreError) {
        do {
            try save(state)
        } catch {
            throw AdminStoreError(.failed, error.message)
        }
    }
}
