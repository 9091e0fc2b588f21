import Foundation
import Logging
import SwitchboardCore
import SwitchboardStore
import SwitchboardTestSupport
import Synchronization
import Testing

@testable import SwitchboardServer

/// Where the test cluster is (set by scripts/test.sh).
enum TestPostgres {
    static var url: String? { ProcessInfo.processInfo.environment["SWITCHBOARD_TEST_POSTGRES"] }
    static var cluster: String? { ProcessInfo.processInfo.environment["SWITCHBOARD_TEST_POSTGRES_CLUSTER"] }
}

/// The PostgreSQL store shared by replicas, against the throwaway cluster that
/// `scripts/test.sh` starts (`SWITCHBOARD_TEST_POSTGRES`, `SWITCHBOARD_TEST_POSTGRES_CLUSTER`).
/// A developer running `swift test` without it gets these tests skipped, not failed; CI always
/// runs them through scripts/test.sh. Serialized: one test stops and restarts the cluster.
@Suite(
    "PostgreSQL store shared by replicas", .serialized, .blockingIO,
    .enabled("needs SWITCHBOARD_TEST_POSTGRES (run scripts/test.sh)") { TestPostgres.url != nil })
struct ReplicaTests {

    /// A fresh database on the test cluster; its URL.
    static func freshDatabase() throws -> String {
        let base = try #require(TestPostgres.url)
        let name = "sb_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try PostgresConnection(base).execute("CREATE DATABASE \(name)")
        let slash = try #require(base.range(of: "/", options: .backwards))
        return String(base[..<slash.lowerBound]) + "/" + name
    }

    /// Stops (`stop`, `kill`) or restarts the test cluster and waits until it is down or
    /// accepting connections.
    static func cluster(_ command: String) throws {
        let script = Package.root.appendingPathComponent("scripts/pg-test-cluster.sh").path
        let directory = try #require(TestPostgres.cluster)
        // system() rather than Process: Foundation's child tracking can miss the exit of
        // pg_ctl once the postmaster it started lives on. The result is checked by connecting.
        _ = system("'\(script)' \(command) '\(directory)' >/dev/null 2>&1")
        let url = try #require(TestPostgres.url)
        let wantUp = command == "restart"
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let up = (try? PostgresConnection(url, connectTimeoutSeconds: 1)) != nil
            if up == wantUp { return }
            usleep(50_000)
        }
        Issue.record("the test cluster did not \(command) within 30 s")
    }

    static func replica(_ config: TestConfig, _ database: String, _ name: String) async throws -> ServerProcess {
        let server = try ServerProcess(config: config, environment: ["SWITCHBOARD_STORE": database], logName: "\(name).log")
        try await server.waitUntilListening()
        return server
    }

    static let rule = #"{"id":"sale","match":"^shopapp://sale$","target":"shopapp://venue/summer"}"#

    @Test func theConnectionRunsParameterisedStatementsReportsSQLStateAndDeliversNotifications() throws {
        let database = try Self.freshDatabase()
        let first = try PostgresConnection(database)
        let rows = try first.execute("SELECT $1::int + 1, $2::text IS NULL", ["41", nil])
        #expect(rows.values == [["42", "t"]])
        #expect(throws: PostgresError.self) { try first.execute("SELECT 1 / 0") }
        do {
            try first.execute("SELECT 1 / 0")
        } catch {
            #expect(error.sqlState == "22012" && !error.isConnectionFailure)
        }
        try first.execute("LISTEN t_channel")
        let second = try PostgresConnection(database)
        try second.execute("SELECT pg_notify('t_channel', 'v7')")
        #expect(try first.notifications(waitingUpTo: .seconds(2)) == ["v7"])
        #expect(try first.notifications(waitingUpTo: .milliseconds(50)) == [])
        #expect(throws: PostgresError.self) { try PostgresConnection("postgres://postgres@127.0.0.1:1/none", connectTimeoutSeconds: 1) }
    }

    @Test func theServersNoticesGoToTheLoggerNotToStderr() throws {
        let (logger, records) = CollectingLogHandler.logger()
        let connection = try PostgresConnection(try Self.freshDatabase(), notices: PostgresNoticeSink(logger: logger))
        try connection.execute("DO $$ BEGIN RAISE WARNING 'switchboard-notice-probe'; END $$")
        let notice = try #require(records.all.first { $0.message.contains("switchboard-notice-probe") })
        #expect(notice.level == .warning)
        #expect(notice.metadata["severity"]?.description == "WARNING" && notice.metadata["sqlstate"]?.description == "01000")
    }

    @Test func theStoreMigratesOnceAndEnforcesTheVersion() throws {
        let database = try Self.freshDatabase()
        let store = try PostgresAdminStore(url: database)
        _ = try PostgresAdminStore(url: database)  // a second start finds the schema in place
        #expect(try store.load() == AdminState())
        var state = AdminState(version: 1, rules: [.init(id: "a", match: "^a://", target: "b://")])
        try store.commit(state, replacing: 0)
        #expect(try store.load() == state)
        state.version = 2
        #expect(throws: AdminStoreError.self) { try store.commit(state, replacing: 0) }
        let migrations = try PostgresConnection(database).execute("SELECT version FROM switchboard_migrations")
        #expect(migrations.values == [["1"], ["2"]])
    }

    /// The next version of `state`, as the server makes it (the change in the history).
    static func next(_ state: AdminState, action: String = "rules.add", _ edit: (inout [RewriteRule]) -> Void) -> AdminState {
        var after = state
        edit(&after.rules)
        after.version += 1
        after.history.append(AdminHistoryEntry(from: state, to: after, time: "2026-11-25T00:00:00Z", token: "t", action: action))
        return after
    }

    @Test func aWriteStoresOneChangeRowAndTheChangesAreFoldedIntoTheSnapshotOnceAsLarge() throws {
        let database = try Self.freshDatabase()
        let store = try PostgresAdminStore(url: database)
        let sql = try PostgresConnection(database)
        func rows() throws -> (changes: Int, bytes: Int, snapshotVersion: Int) {
            let changes = try sql.execute("SELECT count(*), coalesce(sum(octet_length(record)), 0) FROM switchboard_changes").values[0]
            let snapshot = try sql.execute("SELECT snapshot_version FROM switchboard_state").values[0]
            return (Int(changes[0] ?? "") ?? -1, Int(changes[1] ?? "") ?? -1, Int(snapshot[0] ?? "") ?? -1)
        }
        var state = Self.next(AdminState(), action: "rules.replace") { rules in
            rules = (0..<2_000).map { RewriteRule(id: "bulk\($0)", match: "^bulk\($0)://", target: "shopapp://me") }
        }
        try store.commit(state, replacing: 0)
        #expect(try rows().changes == 0 && rows().snapshotVersion == 1)
        let follower = try PostgresAdminStore(url: database)
        #expect(try follower.load() == state)
        for index in 0..<5 {
            let next = Self.next(state) { $0.append(RewriteRule(id: "one\(index)", match: "^one://", target: "shopapp://me")) }
            try store.commit(next, replacing: state.version)
            state = next
            let (changes, bytes, snapshotVersion) = try rows()
            #expect(changes == index + 1 && bytes < 600 * (index + 1) && snapshotVersion == 1, "\(changes) rows, \(bytes) bytes")
            // The follower reads only the new change; a fresh reader the snapshot and the changes.
            #expect(try follower.load() == state)
            #expect(try PostgresAdminStore(url: database).load() == state)
        }
        // Changes adding up to the snapshot's size are folded into it.
        let long = String(repeating: "x", count: 10_000)
        var folded = false
        for index in 0..<60 where !folded {
            let next = Self.next(state) { $0.append(RewriteRule(id: "long\(index)", match: "^long://", target: "shopapp://" + long)) }
            try store.commit(next, replacing: state.version)
            state = next
            folded = try rows().snapshotVersion == state.version
        }
        #expect(try folded && rows().changes == 0)
        #expect(try follower.load() == state)
        #expect(try PostgresAdminStore(url: database).load() == state)
    }

    @Test func aDatabaseWrittenByEarlierVersionsIsReadWithItsHistoryAndWrittenOnAsChanges() throws {
        let database = try Self.freshDatabase()
        let sql = try PostgresConnection(database)
        // Schema version 1, and a document with the whole state in each history entry.
        try sql.execute(
            "CREATE TABLE switchboard_state (id integer PRIMARY KEY CHECK (id = 1), version bigint NOT NULL, document text NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())"
        )
        try sql.execute(
            "CREATE TABLE switchboard_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())")
        try sql.execute("INSERT INTO switchboard_migrations (version) VALUES (1)")
        let a = RewriteRule(id: "a", match: "^a://", target: "shopapp://me")
        let b = RewriteRule(id: "b", match: "^b://", target: "shopapp://me")
        let document = """
            {"version": 2, "rules": [\(b.fileJSON.jsonText)], "routes": [], "history": [
              {"version": 1, "time": "t1", "token": "alice", "action": "rules.add", "ids": ["a"], "rules": [\(a.fileJSON.jsonText)], "routes": []},
              {"version": 2, "time": "t2", "token": "bob", "action": "rules.replace", "ids": ["b", "a"], "rules": [\(b.fileJSON.jsonText)], "routes": []}
            ]}
            """
        try sql.execute("INSERT INTO switchboard_state (id, version, document) VALUES (1, 2, $1)", [document])
        let store = try PostgresAdminStore(url: database)
        let loaded = try store.load()
        #expect(loaded.version == 2 && loaded.rules == [b] && loaded.history.map(\.token) == ["alice", "bob"])
        #expect(loaded.content(atVersion: 1)?.rules == [a])
        let next = Self.next(loaded) { $0.append(a) }
        try store.commit(next, replacing: 2)
        #expect(try sql.execute("SELECT count(*) FROM switchboard_changes").values == [["1"]])
        let reread = try PostgresAdminStore(url: database).load()
        #expect(reread == next && reread.content(atVersion: 1)?.rules == [a])
    }

    @Test func aRulePushedToOneReplicaAnswersOnTheOtherWithinOneSecond() async throws {
        let database = try Self.freshDatabase()
        let config = try TestConfig.demo()
        let a = try await Self.replica(config, database, "a")
        let b = try await Self.replica(config, database, "b")
        #expect(try b.client().resolve("shopapp://sale").status == 404)
        #expect(try a.client().admin("POST", "/admin/rules", json: Self.rule).status == 201)
        let started = ContinuousClock.now
        let arrived = try await eventually(timeout: .seconds(1), interval: .milliseconds(10)) {
            try b.client().resolve("shopapp://sale").json["rewrittenURL"] as? String == "shopapp://venue/summer"
        }
        #expect(arrived, "B did not see A's rule within 1 s (\(ContinuousClock.now - started))")
        #expect(try b.client().admin("GET", "/admin/rules").etag == #""1""#)
        let history = try b.client().admin("GET", "/admin/history").json["history"] as? [[String: Any]]
        #expect(history?.first?["ids"] as? [String] == ["sale"])
    }

    @Test func concurrentConflictingWritesToTwoReplicasLetExactlyOneWin() async throws {
        let database = try Self.freshDatabase()
        let config = try TestConfig.demo()
        let a = try await Self.replica(config, database, "a")
        let b = try await Self.replica(config, database, "b")
        for round in 0..<3 {
            let version = try a.client().admin("GET", "/admin/rules").etag ?? #""0""#
            let ports = [a.port, b.port]
            let statuses = Mutex<[Int]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                let side = index == 0 ? "a" : "b"
                let body = #"{"rules":[{"id":"r\#(round)\#(side)","match":"^\#(side)\#(round)://","target":"shopapp://me"}]}"#
                let status =
                    (try? HTTPTestClient(port: ports[index]).admin("PUT", "/admin/rules", json: body, headers: [("If-Match", version)])
                        .status) ?? 0
                statuses.withLock { $0.append(status) }
            }
            let sorted = statuses.withLock { $0.sorted() }
            #expect(sorted == [200, 412], "round \(round): \(sorted)")
            // Both converge on the winner's version.
            let converged = try await eventually(timeout: .seconds(2)) {
                try a.client().admin("GET", "/admin/rules").etag == b.client().admin("GET", "/admin/rules").etag
            }
            #expect(converged)
        }
    }

    @Test func withTheDatabaseDownReplicasKeepResolvingAndWritesAre503ThenConverge() async throws {
        let database = try Self.freshDatabase()
        let config = try TestConfig.demo()
        let a = try await Self.replica(config, database, "a")
        let b = try await Self.replica(config, database, "b")
        #expect(try a.client().admin("POST", "/admin/rules", json: Self.rule).status == 201)
        #expect(try await eventually(timeout: .seconds(2)) { try b.client().resolve("shopapp://sale").json["rewrittenURL"] != nil })

        try Self.cluster("stop")
        var restarted = false
        defer { if !restarted { try? Self.cluster("restart") } }
        for replica in [a, b] {
            let resolved = try replica.client().resolve("shopapp://sale")
            #expect(resolved.status == 200 && resolved.json["rewrittenURL"] as? String == "shopapp://venue/summer")
            #expect(try replica.client().resolve("shopapp://product/42").status == 200)
            let write = try replica.client().admin(
                "POST", "/admin/rules", json: #"{"id":"down","match":"^down://","target":"shopapp://me"}"#)
            #expect(write.status == 503, "\(write.dump)")
            #expect(write.errorMessage.contains("PostgreSQL"))
        }

        try Self.cluster("restart")
        restarted = true
        let accepted = try await eventually(timeout: .seconds(10), interval: .milliseconds(200)) {
            try b.client().admin("POST", "/admin/rules", json: #"{"id":"back","match":"^back://","target":"shopapp://me"}"#).status == 201
        }
        #expect(accepted)
        let converged = try await eventually(timeout: .seconds(10), interval: .milliseconds(100)) {
            try a.client().resolve("back://x").json["ruleIds"] as? [String] == ["back"]
                && a.client().admin("GET", "/admin/rules").etag == b.client().admin("GET", "/admin/rules").etag
        }
        #expect(converged)
    }

    /// A replica that missed a change (its process stopped while another replica wrote) and
    /// cannot reach the database does not judge a write against the state it has: a delete of
    /// the rule it has not seen is a 503, not a 404. Once the database is back, it catches up
    /// and the same delete succeeds.
    @Test func aLaggingReplicaDoesNotRefuseAWriteItCannotJudge() async throws {
        let database = try Self.freshDatabase()
        let config = try TestConfig.demo()
        let a = try await Self.replica(config, database, "a")
        let b = try await Self.replica(config, database, "b")
        b.send(SIGSTOP)
        var stopped = true
        defer { if stopped { b.send(SIGCONT) } }
        #expect(try a.client().admin("POST", "/admin/rules", json: Self.rule).status == 201)
        try Self.cluster("stop")
        var restarted = false
        defer { if !restarted { try? Self.cluster("restart") } }
        b.send(SIGCONT)
        stopped = false

        let lagging = try b.client().admin("DELETE", "/admin/rules/sale")
        #expect(lagging.status == 503, "\(lagging.dump)")
        #expect(lagging.errorCode == "store_unavailable")
        let guarded = try b.client().admin("DELETE", "/admin/rules/sale", headers: [("If-Match", #""1""#)])
        #expect(guarded.status == 503, "\(guarded.dump)")

        try Self.cluster("restart")
        restarted = true
        let deleted = try await eventually(timeout: .seconds(10), interval: .milliseconds(200)) {
            try b.client().admin("DELETE", "/admin/rules/sale").status == 204
        }
        #expect(deleted)
    }

    /// Sends `signal` to the test cluster's postmaster and every process it started (a frozen
    /// database: `SIGSTOP`, then `SIGCONT`).
    static func signalCluster(_ signal: String) throws {
        let directory = try #require(TestPostgres.cluster)
        let pidFile = try String(contentsOfFile: directory + "/data/postmaster.pid", encoding: .utf8)
        let postmaster = try #require(pidFile.split(separator: "\n").first.map(String.init))
        _ = system("kill -\(signal) \(postmaster) $(pgrep -P \(postmaster)) 2>/dev/null")
    }

    /// A database that stops answering without closing its connections (a frozen VM) holds up
    /// neither a hot reload nor a write: the reload is served within seconds, and a write is a
    /// 503 within the statement timeout instead of waiting for the thaw.
    @Test func aFrozenDatabaseHoldsUpNeitherReloadsNorWrites() async throws {
        let database = try Self.freshDatabase()
        let config = try TestConfig.demo()
        let replica = try await Self.replica(config, database, "frozen")
        #expect(try replica.client().admin("POST", "/admin/rules", json: Self.rule).status == 201)
        try Self.signalCluster("STOP")
        var frozen = true
        defer { if frozen { try? Self.signalCluster("CONT") } }
        // Long enough for the follower's periodic check to be waiting on the frozen database.
        try await Task.sleep(for: .seconds(6))
        try config.write("routes.d/frozen.yaml", "module: frozen\nroutes:\n  - id: frozen.one\n    pattern: /frozen\n")
        let reloaded = try await eventually(timeout: .seconds(4), interval: .milliseconds(100)) {
            try replica.client().resolve("shopapp://frozen").status == 200
        }
        #expect(reloaded)
        let clock = ContinuousClock()
        let started = clock.now
        let write = try replica.client(timeout: .seconds(30)).admin(
            "POST", "/admin/rules", json: #"{"id":"cold","match":"^cold://","target":"shopapp://me"}"#)
        #expect(write.status == 503, "\(write.dump)")
        #expect(clock.now - started < .seconds(20))
        try Self.signalCluster("CONT")
        frozen = false
        let accepted = try await eventually(timeout: .seconds(15), interval: .milliseconds(200)) {
            try replica.client(timeout: .seconds(30)).admin(
                "POST", "/admin/rules", json: #"{"id":"warm","match":"^warm://","target":"shopapp://me"}"#
            ).status == 201
        }
        #expect(accepted)
    }

    /// After PostgreSQL is killed and started again, a replica catches up within a second, even
    /// with the write it missed made before its listener reconnected: the resynchronisation is
    /// retried until the store answers. Nothing acknowledged is lost, and PostgreSQL's
    /// goodbye goes through the logger, not raw to stderr.
    @Test func afterAnImmediateRestartOfPostgreSQLAReplicaConvergesWithinOneSecond() async throws {
        let database = try Self.freshDatabase()
        let config = try TestConfig.demo()
        let a = try await Self.replica(config, database, "a")
        let b = try await Self.replica(config, database, "b")
        func rule(_ id: String) -> String { #"{"id":"\#(id)","match":"^\#(id)://","target":"shopapp://me"}"# }

        var acknowledged: [String] = []
        for index in 0..<3 {
            if try a.client().admin("POST", "/admin/rules", json: rule("before\(index)")).status == 201 {
                acknowledged.append("before\(index)")
            }
        }
        #expect(acknowledged.count == 3)
        try Self.cluster("kill")
        var restarted = false
        defer { if !restarted { try? Self.cluster("restart") } }
        // Writes go on while the store is down: refused, never acknowledged.
        for index in 0..<3 {
            #expect(try a.client().admin("POST", "/admin/rules", json: rule("down\(index)")).status == 503)
        }
        // Long enough for the listeners' backoff to reach its longest wait.
        try await Task.sleep(for: .seconds(2))
        try Self.cluster("restart")
        restarted = true

        // The first write after the restart: A's kept connection is the dead one, so it may
        // be refused once; it lands before B's listener is back, so B gets no notification.
        var attempts = 0
        let written = try await eventually(timeout: .seconds(5), interval: .milliseconds(20)) {
            attempts += 1
            return try a.client().admin("POST", "/admin/rules", json: rule("after")).status == 201
        }
        #expect(written)
        let acknowledgedAt = ContinuousClock.now
        let converged = try await eventually(timeout: .seconds(5), interval: .milliseconds(10)) {
            try b.client().resolve("after://x").json["ruleIds"] as? [String] == ["after"]
        }
        let lag = ContinuousClock.now - acknowledgedAt
        #expect(converged && lag < .seconds(1), "B caught up \(lag) after A acknowledged (\(attempts) attempts)\n\(b.log)")

        for replica in [a, b] {
            let ids = try #require(try replica.client().admin("GET", "/admin/rules").json["rules"] as? [[String: Any]]).compactMap {
                $0["source"] as? String == "admin" ? $0["id"] as? String : nil
            }
            #expect(ids == acknowledged + ["after"])
            let raw = replica.log.split(separator: "\n").filter { $0.hasPrefix("WARNING:") || $0.hasPrefix("FATAL:") }
            #expect(raw.isEmpty, "libpq wrote to stderr: \(raw)")
        }
    }

    @Test func migrateStoreCopiesTheFileStateIntoAnEmptyDatabaseOnly() throws {
        let database = try Self.freshDatabase()
        let directory = try TemporaryDirectory()
        var state = AdminState(version: 3, rules: [.init(id: "kept", match: "^kept://", target: "shopapp://me")])
        state.history = [
            AdminHistoryEntry(
                from: AdminState(version: 2), to: state, time: "2026-11-24T00:00:00Z", token: "alice", action: "rules.add")
        ]
        try FileAdminStore(directory: directory.path).save(state)

        let copied = try CLITests.run(["migrate-store", "--from", directory.path, "--to", database], in: directory)
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.stdout.contains("version 3 (1 rules, 0 routes, 1 history entries)"))
        #expect(try PostgresAdminStore(url: database).load() == state)

        let again = try CLITests.run(["migrate-store", "--from", directory.path, "--to", database], in: directory)
        #expect(again.status == 2)
        #expect(again.stderr.contains("--force"))
        let forced = try CLITests.run(["migrate-store", "--from", directory.path, "--to", database, "--force"], in: directory)
        #expect(forced.status == 0)
        #expect(try PostgresAdminStore(url: database).version() == 4)
    }

    @Test func migrateStoreRefusesADirectoryThatIsMissingOrHoldsNoStateAndWritesNothing() throws {
        let database = try Self.freshDatabase()
        let directory = try TemporaryDirectory()
        let missing = directory.path + "/no-such-dir"
        let typo = try CLITests.run(["migrate-store", "--from", missing, "--to", database], in: directory)
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("\(missing) does not exist"), "\(typo.stderr)")
        let empty = try CLITests.run(["migrate-store", "--from", directory.path, "--to", database], in: directory)
        #expect(empty.status == 2)
        #expect(empty.stderr.contains("\(directory.path) holds no admin state"), "\(empty.stderr)")
        // Not even the schema: the database is as it was.
        let table = try PostgresConnection(database).execute("SELECT to_regclass('switchboard_state') IS NULL")
        #expect(table.values == [["t"]])
    }

    @Test func afterAForcedMigrationEveryVersionTheHistoryListsCanBeReadAndRolledBackTo() async throws {
        let database = try Self.freshDatabase()
        let directory = try TemporaryDirectory()
        var state = AdminState()
        for id in ["r1", "r2", "r3"] {
            state = Self.next(state) { $0.append(RewriteRule(id: id, match: "^\(id)://", target: "shopapp://me")) }
        }
        try FileAdminStore(directory: directory.path).save(state)
        for arguments in [[], ["--force"]] {
            let run = try CLITests.run(["migrate-store", "--from", directory.path, "--to", database] + arguments, in: directory)
            #expect(run.status == 0, "\(run.stderr)")
        }

        let server = try await Self.replica(try TestConfig.demo(), database, "forced")
        let history = try server.client().admin("GET", "/admin/history").json
        #expect(history["version"] as? Int == 4)
        let versions = try #require(history["history"] as? [[String: Any]]).compactMap { $0["version"] as? Int }
        #expect(versions == [4, 3, 2])
        // Each listed version holds the rules the file store had at the matching version.
        for (version, ids) in [(4, ["r1", "r2", "r3"]), (3, ["r1", "r2"]), (2, ["r1"])] {
            let content = try server.client().admin("GET", "/admin/history/\(version)")
            #expect(content.status == 200, "\(content.errorMessage)")
            let rules = content.json["rules"] as? [[String: Any]] ?? []
            #expect(rules.compactMap { $0["id"] as? String } == ids)
            let rollback = try server.client().admin("POST", "/admin/rollback?dry_run=1", json: #"{"version": \#(version)}"#)
            #expect(rollback.status == 200, "\(rollback.errorMessage)")
        }
    }
}
