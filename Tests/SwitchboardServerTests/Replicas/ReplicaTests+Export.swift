import Foundation
import SwitchboardTestSupport
import Testing

extension ReplicaTests {
    /// `switchboard export --store postgres://…` writes the same files as an export from the
    /// server whose store it is (in this suite, which runs one test at a time, because another
    /// of its tests restarts the cluster).
    @Test func exportReadsAPostgreSQLStore() async throws {
        let database = try Self.freshDatabase()
        let live = try await AdminCommandTests.Live(environment: ["SWITCHBOARD_STORE": database])
        let applied = try live.run(["admin", "apply", "-f", try live.file("incident.yaml", ExportCommandTests.incident)])
        #expect(applied.status == 0, "\(applied.stderr)")

        let fromServer = live.directory.url.appendingPathComponent("from-server").path
        let fromDatabase = live.directory.url.appendingPathComponent("from-database").path
        #expect(try live.run(["export", "--output", fromServer]).status == 0)
        let exported = try live.run(["export", "--output", fromDatabase, "--store", database])
        #expect(exported.status == 0, "\(exported.stderr)")
        let files = try FileManager.default.subpathsOfDirectory(atPath: fromServer).filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(files == ["rewrites.yaml", "routes.d/admin.admin.yaml", "routes.d/admin.hotfix.yaml"])
        for file in files {
            let server = try String(contentsOfFile: fromServer + "/" + file, encoding: .utf8)
            #expect(server == (try String(contentsOfFile: fromDatabase + "/" + file, encoding: .utf8)), "\(file)")
        }
    }
}
