import Foundation
import Logging
import SwitchboardCore
import Synchronization

/// The admin state in PostgreSQL, shared by every replica.
///
/// One row (`switchboard_state`, id 1) holds the version and a snapshot of the whole state at
/// `snapshot_version` (``AdminStateSnapshot``, as in the file store's `state.json`; a JSON
/// document in databases written by earlier versions); `switchboard_changes` holds one
/// ``AdminChangeRecord`` per version after it. The state is the snapshot plus those changes.
/// A write is one transaction, whose cost is in proportion to the change:
/// `UPDATE … SET version … WHERE version = expected` (0 rows: another replica won → 412), an
/// `INSERT` of the change, then `pg_notify('switchboard_state', version)`, delivered to every
/// listening replica at commit. Once the changes add up to the snapshot's size, the write
/// replaces the snapshot instead and deletes them, in the same transaction. A replica that
/// follows reads only the changes after the version it has.
///
/// The schema is created and migrated at start (`switchboard_migrations`), under an advisory
/// lock so that replicas starting together do not race.
package final class PostgresAdminStore: AdminStore {
    /// The channel replicas `LISTEN` on; the payload is the new version.
    package static let channel = "switchboard_state"

    /// The connection string (`postgres://…`).
    package let url: String
    private let connection = Mutex<PostgresConnection?>(nil)
    /// Where the store connection's notices go (``routeNotices(to:)``).
    private let notices = PostgresNoticeSink()

    /// The ordered schema migrations; the index + 1 is the migration's version.
    static let migrations: [[String]] = [
        [
            """
            CREATE TABLE switchboard_state (
                id integer PRIMARY KEY CHECK (id = 1),
                version bigint NOT NULL,
                document text NOT NULL,
                updated_at timestamptz NOT NULL DEFAULT now())
            """,
            "INSERT INTO switchboard_state (id, version, document) VALUES (1, 0, $1)",
        ],
        [
            """
            ALTER TABLE switchboard_state
                ADD COLUMN snapshot_version bigint NOT NULL DEFAULT 0,
                ADD COLUMN snapshot_bytes bigint NOT NULL DEFAULT 0,
                ADD COLUMN log_bytes bigint NOT NULL DEFAULT 0
            """,
            "UPDATE switchboard_state SET snapshot_version = version, snapshot_bytes = octet_length(document)",
            "CREATE TABLE switchboard_changes (version bigint PRIMARY KEY, record text NOT NULL)",
        ],
    ]

    /// The changes may add up to the snapshot's size, and at least to this, before a write
    /// replaces the snapshot.
    static let smallestCompactedLog = 64 * 1024

    /// The state this process last read or wrote: a follower reads only the changes after it,
    /// and a write that follows it is stored as a change.
    private let known = Mutex<AdminState?>(nil)

    /// Connects and brings the schema up to date.
    /// - Throws: ``AdminStoreError`` (`unavailable`) when PostgreSQL cannot be reached.
    package init(url: String) throws(AdminStoreError) {
        self.url = url
        try withConnection { (connection) throws(PostgresError) in
            try Self.migrate(connection)
        }
    }

    package var location: String {
        // Never log credentials.
        guard let parsed = URLComponents(string: url) else { return "postgres" }
        return "postgres \(parsed.host ?? "localhost")\(parsed.port.map { ":\($0)" } ?? "")\(parsed.path)"
    }

    private static func migrate(_ connection: PostgresConnection) throws(PostgresError) {
        try connection.execute("SET client_min_messages = warning")
        try connection.execute("BEGIN")
        do throws(PostgresError) {
            try connection.execute("SELECT pg_advisory_xact_lock(7301)")
            try connection.execute(
                "CREATE TABLE IF NOT EXISTS switchboard_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            let current =
                Int(
                    try connection.execute("SELECT coalesce(max(version), 0) FROM switchboard_migrations").values.first?.first??.description
                        ?? "0") ?? 0
            for (offset, statements) in migrations.enumerated() where offset + 1 > current {
                for statement in statements {
                    try connection.execute(statement, statement.contains("$1") ? [AdminState().fileText] : [])
                }
                try connection.execute("INSERT INTO switchboard_migrations (version) VALUES ($1)", [String(offset + 1)])
            }
            try connection.execute("COMMIT")
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// What a read found.
    private enum Read {
        /// The version is the one this process knows.
        case unchanged
        /// The records of the versions after the one this process knows, in order.
        case changes([String])
        /// The snapshot and the records after it.
        case whole(snapshot: String, records: [String])
    }

    package func load() throws(AdminStoreError) -> AdminState {
        try load(from: known.withLock { $0 })
    }

    /// Reads the state, as the changes after `base` when it can.
    private func load(from base: AdminState?) throws(AdminStoreError) -> AdminState {
        let read = try withConnection(retryingOnAFreshConnection: true) { (connection) throws(PostgresError) -> Read in
            // One consistent view: another replica's write may replace the snapshot meanwhile.
            try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            do throws(PostgresError) {
                let row = try connection.execute("SELECT version, snapshot_version FROM switchboard_state WHERE id = 1").values.first
                let version = Int((row?.first ?? nil) ?? "") ?? 0
                let snapshotVersion = Int((row?.last ?? nil) ?? "") ?? 0
                let read: Read
                if let base, base.version == version {
                    read = .unchanged
                } else if let base, base.version >= snapshotVersion, base.version < version {
                    read = .changes(try Self.records(after: base.version, connection))
                } else {
                    let snapshot = try connection.execute("SELECT document FROM switchboard_state WHERE id = 1").values.first?.first ?? nil
                    read = .whole(snapshot: snapshot ?? "", records: try Self.records(after: snapshotVersion, connection))
                }
                try connection.execute("COMMIT")
                return read
            } catch {
                _ = try? connection.execute("ROLLBACK")
                throw error
            }
        }
        var state: AdminState
        let records: [String]
        switch read {
        case .unchanged:
            return base ?? AdminState()
        case .changes(let changes):
            guard let base else { return try load(from: nil) }
            (state, records) = (base, changes)
        case .whole(let snapshot, let changes):
            state = try decodeSnapshot(snapshot)
            records = changes
        }
        for text in records {
            let record: AdminChangeRecord
            do {
                record = try Array(text.utf8).withUnsafeBytes { try AdminChangeRecord(payload: $0) }
            } catch {
                throw AdminStoreError(.failed, "a change in \(location) is corrupt: \(DecodingErrorDescription.describe(error))")
            }
            if record.version <= state.version { continue }
            guard let next = state.applying(record) else {
                // Changes that do not follow the state this process had: read the whole state.
                if case .changes = read { return try load(from: nil) }
                throw AdminStoreError(
                    .failed, "the change of version \(record.version) in \(location) does not follow version \(state.version)")
            }
            state = next
        }
        // A write of this process may have committed a newer version meanwhile.
        known.withLock { known in
            if (known?.version ?? -1) < state.version { known = state }
        }
        return state
    }

    /// The change records after `version`, oldest first.
    private static func records(after version: Int, _ connection: PostgresConnection) throws(PostgresError) -> [String] {
        try connection.execute("SELECT record FROM switchboard_changes WHERE version > $1 ORDER BY version", [String(version)]).values
            .compactMap { $0.first ?? nil }
    }

    /// Decodes the snapshot column: records, or the JSON document of earlier versions.
    private func decodeSnapshot(_ text: String) throws(AdminStoreError) -> AdminState {
        let bytes = Array(text.utf8)
        do {
            if AdminStateSnapshot.looksLikeSnapshot(bytes) {
                return try bytes.withUnsafeBytes { try AdminStateSnapshot.state(from: $0) }
            }
            return try AdminState(document: text)
        } catch {
            throw AdminStoreError(.failed, "the admin state in \(location) is corrupt: \(DecodingErrorDescription.describe(error))")
        }
    }

    /// The stored version (cheap; the listener polls it as a safety net).
    package func version() throws(AdminStoreError) -> Int {
        try withConnection(retryingOnAFreshConnection: true) { (connection) throws(PostgresError) -> Int in
            Int(try connection.execute("SELECT version FROM switchboard_state WHERE id = 1").values.first?.first??.description ?? "0") ?? 0
        }
    }

    package func commit(_ state: AdminState, replacing expectedVersion: Int) throws(AdminStoreError) {
        // Until this write succeeds, what is stored is not known for sure.
        let base = known.withLock { known in
            defer { known = nil }
            return known
        }
        var change: String?
        if let base, base.version == expectedVersion, let record = AdminChangeRecord(last: state), base.applying(record) == state {
            change = record.payload
        }
        let won = try withConnection { (connection) throws(PostgresError) -> Bool in
            try connection.execute("BEGIN")
            do throws(PostgresError) {
                let updated = try connection.execute(
                    """
                    UPDATE switchboard_state SET version = $1, updated_at = now(), log_bytes = log_bytes + $2
                    WHERE id = 1 AND version = $3 RETURNING log_bytes, snapshot_bytes
                    """,
                    [String(state.version), String(change?.utf8.count ?? 0), String(expectedVersion)])
                guard let row = updated.values.first, row.count == 2 else {
                    try connection.execute("ROLLBACK")
                    return false
                }
                let logBytes = Int(row[0] ?? "") ?? Int.max
                let snapshotBytes = Int(row[1] ?? "") ?? 0
                if let change, logBytes <= max(snapshotBytes, Self.smallestCompactedLog) {
                    try connection.execute(
                        "INSERT INTO switchboard_changes (version, record) VALUES ($1, $2)", [String(state.version), change])
                } else {
                    let snapshot = String(decoding: AdminStateSnapshot.bytes(of: state), as: UTF8.self)
                    try connection.execute(
                        """
                        UPDATE switchboard_state SET document = $1, snapshot_version = $2, snapshot_bytes = $3, log_bytes = 0
                        WHERE id = 1
                        """,
                        [snapshot, String(state.version), String(snapshot.utf8.count)])
                    try connection.execute("DELETE FROM switchboard_changes")
                }
                try connection.execute("SELECT pg_notify($1, $2)", [Self.channel, String(state.version)])
                do throws(PostgresError) {
                    try connection.execute("COMMIT")
                } catch {
                    guard error.isConnectionFailure else { throw error }
                    throw PostgresError(
                        sqlState: error.sqlState,
                        message: "\(error.message), while committing: the change may or may not have been applied; "
                            + "read the admin state before retrying it")
                }
                return true
            } catch {
                _ = try? connection.execute("ROLLBACK")
                throw error
            }
        }
        guard won else {
            throw AdminStoreError(
                .versionConflict,
                "another replica changed the admin state first (it is no longer at version \(expectedVersion)); fetch it again and retry")
        }
        known.withLock { $0 = state }
    }

    package func routeNotices(to logger: Logger) {
        notices.attach(logger)
    }

    /// Runs `body` on the store's connection, connecting (again) when needed. A lost connection
    /// is dropped, so the next call reconnects; the error is `unavailable`.
    ///
    /// - Parameter retryingOnAFreshConnection: for a read only: when a connection kept from
    ///   before fails (the server restarted since), run `body` once more on a new one. A write
    ///   is never run twice: whether a commit on a lost connection happened is unknown.
    private func withConnection<Result>(
        retryingOnAFreshConnection: Bool = false, _ body: (PostgresConnection) throws(PostgresError) -> Result
    ) throws(AdminStoreError) -> Result {
        try connection.withLock { (current: inout PostgresConnection?) throws(AdminStoreError) -> Result in
            do throws(PostgresError) {
                if current?.isConnected != true { current = try PostgresConnection(url, notices: notices) }
                guard let live = current else { throw PostgresError(sqlState: nil, message: "no connection") }
                do throws(PostgresError) {
                    return try body(live)
                } catch {
                    guard retryingOnAFreshConnection, error.isConnectionFailure || !live.isConnected else { throw error }
                    current = nil
                    let fresh = try PostgresConnection(url, notices: notices)
                    current = fresh
                    return try body(fresh)
                }
            } catch {
                if error.isConnectionFailure || current?.isConnected != true {
                    current = nil
                    throw AdminStoreError(.unavailable, "PostgreSQL (\(location)) is unreachable: \(error.message)")
                }
                throw AdminStoreError(.failed, "PostgreSQL (\(location)) refused the statement: \(error.description)")
            }
        }
    }
}
