import Foundation
import Synchronization

/// The analytics in the PostgreSQL database the replicas share: each replica adds its flushes
/// to the same sums, so a query answers the total of every replica.
///
/// `switchboard_analytics_counts` and `switchboard_analytics_orphans` hold the sums per bucket;
/// `switchboard_analytics_flushes` is the ledger of the flushes added, one row per replica and
/// sequence. A flush is one transaction: its ledger row is inserted first, and when it is
/// there already (a flush written again after a lost answer) nothing is added. Orphan links
/// beyond `orphans_per_bucket` per bucket are trimmed, the least asked first.
package final class PostgresAnalyticsStore: AnalyticsStore {
    private let url: String
    private let orphansPerBucket: Int
    private let connection = Mutex<PostgresConnection?>(nil)

    /// The schema, created when missing (under an advisory lock: replicas start together).
    static let schema = [
        """
        CREATE TABLE IF NOT EXISTS switchboard_analytics_settings (
            id integer PRIMARY KEY CHECK (id = 1), bucket_seconds integer NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS switchboard_analytics_counts (
            bucket bigint NOT NULL, dimension text NOT NULL, key text NOT NULL, count bigint NOT NULL,
            PRIMARY KEY (bucket, dimension, key))
        """,
        """
        CREATE TABLE IF NOT EXISTS switchboard_analytics_orphans (
            bucket bigint NOT NULL, link text NOT NULL, count bigint NOT NULL, PRIMARY KEY (bucket, link))
        """,
        """
        CREATE TABLE IF NOT EXISTS switchboard_analytics_flushes (
            replica text NOT NULL, sequence bigint NOT NULL, flushed_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (replica, sequence))
        """,
    ]

    /// Connects, creates the tables when missing and checks the bucket size.
    ///
    /// - Throws: ``AnalyticsStoreError``: `bucketChanged` when the database counts by another
    ///   bucket, `unavailable` when it cannot be reached.
    package init(url: String, bucketSeconds: Int, orphansPerBucket: Int) throws(AnalyticsStoreError) {
        self.url = url
        self.orphansPerBucket = orphansPerBucket
        let stored = try withConnection { (connection) throws(PostgresError) -> (bucket: Int, empty: Bool) in
            try Self.transaction(connection) { () throws(PostgresError) -> (bucket: Int, empty: Bool) in
                try connection.execute("SET client_min_messages = warning")
                try connection.execute("SELECT pg_advisory_xact_lock(7302)")
                for statement in Self.schema { try connection.execute(statement) }
                try connection.execute(
                    "INSERT INTO switchboard_analytics_settings (id, bucket_seconds) VALUES (1, $1) ON CONFLICT DO NOTHING",
                    [String(bucketSeconds)])
                let bucket = try connection.execute("SELECT bucket_seconds FROM switchboard_analytics_settings")
                let empty = try connection.execute("SELECT 1 FROM switchboard_analytics_counts LIMIT 1").values.isEmpty
                let stored = bucket.values.first?.first.flatMap { $0 }.flatMap { Int($0) } ?? bucketSeconds
                if stored != bucketSeconds, empty {
                    try connection.execute("UPDATE switchboard_analytics_settings SET bucket_seconds = $1", [String(bucketSeconds)])
                }
                return (stored, empty)
            }
        }
        if stored.bucket != bucketSeconds, !stored.empty {
            throw AnalyticsStoreFactory.bucketChanged(
                stored: stored.bucket, asked: bucketSeconds, in: location,
                remedy: "empty the switchboard_analytics_* tables")
        }
    }

    package var location: String {
        // Never log credentials.
        guard let parsed = URLComponents(string: url) else { return "postgres" }
        return "postgres \(parsed.host ?? "localhost")\(parsed.port.map { ":\($0)" } ?? "")\(parsed.path)"
    }

    package func write(_ flush: AnalyticsFlush) throws(AnalyticsStoreError) {
        try withConnection { (connection) throws(PostgresError) in
            try Self.transaction(connection) { () throws(PostgresError) in
                let ledger = try connection.execute(
                    "INSERT INTO switchboard_analytics_flushes (replica, sequence) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                    [flush.replica, String(flush.sequence)])
                guard ledger.affected == 1 else { return }
                if !flush.counts.isEmpty {
                    try connection.execute(
                        """
                        INSERT INTO switchboard_analytics_counts AS c (bucket, dimension, key, count)
                        SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[])
                        ON CONFLICT (bucket, dimension, key) DO UPDATE SET count = c.count + EXCLUDED.count
                        """,
                        [
                            Self.array(flush.counts.map { String($0.bucket) }), Self.array(flush.counts.map(\.dimension.rawValue)),
                            Self.array(flush.counts.map(\.key)), Self.array(flush.counts.map { String($0.count) }),
                        ])
                }
                if !flush.orphans.isEmpty {
                    try connection.execute(
                        """
                        INSERT INTO switchboard_analytics_orphans AS o (bucket, link, count)
                        SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[])
                        ON CONFLICT (bucket, link) DO UPDATE SET count = o.count + EXCLUDED.count
                        """,
                        [
                            Self.array(flush.orphans.map { String($0.bucket) }), Self.array(flush.orphans.map(\.link)),
                            Self.array(flush.orphans.map { String($0.count) }),
                        ])
                    try connection.execute(
                        """
                        DELETE FROM switchboard_analytics_orphans WHERE (bucket, link) IN (
                            SELECT bucket, link FROM (
                                SELECT bucket, link, row_number() OVER (PARTITION BY bucket ORDER BY count DESC, link) AS rank
                                FROM switchboard_analytics_orphans WHERE bucket = ANY($1::bigint[])) ranked
                            WHERE rank > $2)
                        """,
                        [Self.array(Set(flush.orphans.map(\.bucket)).map { String($0) }), String(orphansPerBucket)])
                }
            }
        }
    }

    package func counts(from: Int, to: Int, _ dimension: AnalyticsDimension) throws(AnalyticsStoreError) -> [AnalyticsCount] {
        let rows = try withConnection { (connection) throws(PostgresError) in
            try connection.execute(
                "SELECT bucket, key, count FROM switchboard_analytics_counts WHERE dimension = $1 AND bucket >= $2 AND bucket < $3",
                [dimension.rawValue, String(from), String(to)])
        }
        return rows.values.compactMap { row in
            guard row.count == 3, let bucket = row[0].flatMap({ Int($0) }), let key = row[1], let count = row[2].flatMap({ Int($0) })
            else { return nil }
            return AnalyticsCount(bucket: bucket, dimension: dimension, key: key, count: count)
        }
    }

    package func orphans(from: Int, to: Int) throws(AnalyticsStoreError) -> [OrphanCount] {
        let rows = try withConnection { (connection) throws(PostgresError) in
            try connection.execute(
                "SELECT bucket, link, count FROM switchboard_analytics_orphans WHERE bucket >= $1 AND bucket < $2",
                [String(from), String(to)])
        }
        return rows.values.compactMap { row in
            guard row.count == 3, let bucket = row[0].flatMap({ Int($0) }), let link = row[1], let count = row[2].flatMap({ Int($0) })
            else { return nil }
            return OrphanCount(bucket: bucket, link: link, count: count)
        }
    }

    package func prune(before cutoff: Int) throws(AnalyticsStoreError) {
        try withConnection { (connection) throws(PostgresError) in
            try Self.transaction(connection) { () throws(PostgresError) in
                try connection.execute("DELETE FROM switchboard_analytics_counts WHERE bucket < $1", [String(cutoff)])
                try connection.execute("DELETE FROM switchboard_analytics_orphans WHERE bucket < $1", [String(cutoff)])
                try connection.execute(
                    "DELETE FROM switchboard_analytics_flushes WHERE flushed_at < to_timestamp($1)", [String(cutoff)])
            }
        }
    }

    /// A PostgreSQL array literal of `values` (`{"a","b\"c"}`).
    static func array(_ values: [String]) -> String {
        var literal = "{"
        for (index, value) in values.enumerated() {
            if index > 0 { literal += "," }
            literal += "\""
            for character in value {
                if character == "\"" || character == "\\" { literal += "\\" }
                literal.append(character)
            }
            literal += "\""
        }
        return literal + "}"
    }

    private static func transaction<Result>(
        _ connection: PostgresConnection, _ body: () throws(PostgresError) -> Result
    ) throws(PostgresError) -> Result {
        try connection.execute("BEGIN")
        do throws(PostgresError) {
            let result = try body()
            try connection.execute("COMMIT")
            return result
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Runs `body` on the store's connection, connecting (again) when needed; a lost connection
    /// is dropped so that the next call reconnects.
    private func withConnection<Result>(
        _ body: (PostgresConnection) throws(PostgresError) -> Result
    ) throws(AnalyticsStoreError) -> Result {
        try connection.withLock { (current: inout PostgresConnection?) throws(AnalyticsStoreError) -> Result in
            do throws(PostgresError) {
                if current?.isConnected != true { current = try PostgresConnection(url) }
                guard let live = current else { throw PostgresError(sqlState: nil, message: "no connection") }
                return try body(live)
            } catch {
                if error.isConnectionFailure || current?.isConnected != true {
                    current = nil
                    throw AnalyticsStoreError(.unavailable, "PostgreSQL (\(location)) is unreachable: \(error.message)")
                }
                throw AnalyticsStoreError(.failed, "PostgreSQL (\(location)) refused the statement: \(error.description)")
            }
        }
    }
}
