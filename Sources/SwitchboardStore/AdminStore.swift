import Logging

/// Where the admin state (rules, routes, version, history) lives: the file in `data_dir`
/// (``FileAdminStore``, the default) or PostgreSQL shared by replicas (``PostgresAdminStore``).
///
/// The store is the authority on versions: ``commit(_:replacing:)`` writes only if the stored
/// version is still the one the change was made from, so two replicas cannot both win.
package protocol AdminStore: Sendable {
    /// The stored state (the empty state when nothing was ever stored).
    func load() throws(AdminStoreError) -> AdminState

    /// Stores `state` durably, only if the stored version is `expectedVersion`; returns once
    /// it is durable. Throws ``AdminStoreError/Kind/versionConflict`` when another writer got
    /// there first, ``AdminStoreError/Kind/unavailable`` when the store cannot be reached.
    func commit(_ state: AdminState, replacing expectedVersion: Int) throws(AdminStoreError)

    /// A short description for logs and `/admin/status` (`file /data/state.json`, `postgres host:port/db`).
    var location: String { get }

    /// Whether other processes (replicas) write to this store too. Then the state a process
    /// runs with may lag behind the store, and must be caught up before a version is judged.
    var isShared: Bool { get }

    /// Follows the changes other writers make, for as long as `shouldStop` returns `false`:
    /// blocks the calling thread, and calls `onChange` after each change and whenever changes
    /// may have been missed (after a reconnect). Returns at once for a store no one else
    /// writes.
    ///
    /// - Parameters:
    ///   - logger: where lost and regained connections are reported.
    ///   - shouldStop: polled at least every 250 ms.
    ///   - onChange: loads the state again (cheap when nothing changed); returns `false` when
    ///     it could not reach the store, and is then called again after a short backoff until
    ///     it returns `true`.
    func followChanges(logger: Logger, shouldStop: () -> Bool, onChange: () -> Bool)

    /// Logs what the store's backend says on its own (PostgreSQL's notices and warnings) to
    /// `logger` from now on, rather than letting it reach stderr raw.
    func routeNotices(to logger: Logger)
}

extension AdminStore {
    /// A store whose backend says nothing on its own ignores the logger.
    package func routeNotices(to logger: Logger) {}
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
