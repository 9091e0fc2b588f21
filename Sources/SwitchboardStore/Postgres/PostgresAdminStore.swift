import Foundation
import Logging
import SwitchboardCore
import Synchronization

/// The admin state in PostgreSQL, shared by every replica.
///
/// One row (`switchboard_state`, id 1) holds the version and the state document — the same
/// JSON as the file store's `state.json`, history included — so that a write is one
/// transaction: `UPDATE … WHERE version = expected` (0 rows: another replica won → 412), then
/// `pg_notify('switchboard_state', version)`, delivered to every listening replica at commit.
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
        ]
    ]

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

    package func load() throws(AdminStoreError) -> AdminState {
        let document = try withConnection(retryingOnAFreshConnection: true) { (connection) throws(PostgresError) -> String? in
            try connection.execute("SELECT document FROM switchboard_state WHERE id = 1").values.first?.first ?? nil
        }
        guard let document else { return AdminState() }
        do {
            return try AdminState(document: document)
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
        let won = try withConnection { (connection) throws(PostgresError) -> Bool in
            try connection.execute("BEGIN")
            do throws(PostgresError) {
                let updated = try connection.execute(
                    "UPDATE switchboard_state SET version = $1, document = $2, updated_at = now() WHERE id = 1 AND version = $3",
                    [String(state.version), state.fileText, String(expectedVersion)])
                guard updated.affected == 1 else {
                    try connection.execute("ROLLBACK")
                    return false
                }
                try connection.execute("SELECT pg_notify($1, $2)", [Self.channel, String(state.version)])
                try connection.execute("COMMIT")
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
