import Foundation
import Logging
import SwitchboardTestSupport
import Testing

extension IntegrationTests {
    /// What operators set once and read in logs: start-only settings named on reload, the
    /// access log without query values, JSON logs (docs/operations.md).
    @Suite("Operations settings")
    struct OperationsSettingsTests {
        @Test("a reload that changes a start-only setting says 'restart to apply' in the log and in /admin/status")
        func restartToApply() async throws {
            let config = try TestConfig.demo()
            let server = try await InProcessServer(config: config)
            let client = try server.client()
            let original = try config.read("switchboard.yaml")
            try config.writeSettings(original + "threads: 3\naccess_log: true\n")
            #expect(try client.admin("POST", "/admin/reload").status == 200)
            var reload = try client.admin("GET", "/admin/status").json["lastReload"] as? [String: Any] ?? [:]
            #expect(reload["ok"] as? Bool == true)
            #expect(reload["restartRequired"] as? [String] == ["threads", "access_log"], "\(reload)")
            #expect(server.logs.all.contains { $0.message.contains("restart to apply") })
            // Back to the values the server started with: nothing to restart for.
            try config.writeSettings(original)
            #expect(try client.admin("POST", "/admin/reload").status == 200)
            reload = try client.admin("GET", "/admin/status").json["lastReload"] as? [String: Any] ?? [:]
            #expect(reload["restartRequired"] as? [String] == [], "\(reload)")
        }

        @Test(
            "HTTP workers: one per core and at least one per 256 connections, unless threads is set",
            arguments: [
                ("", 4), ("limits: { max_connections: 2000 }\n", 8), ("limits: { max_connections: 100 }\n", 1), ("threads: 3\n", 3),
            ])
        func workerThreads(settings: String, expected: Int) async throws {
            let config = try TestConfig.demo()
            try config.writeSettings(try config.read("switchboard.yaml") + settings)
            let server = try await InProcessServer(config: config)
            let cores = ProcessInfo.processInfo.activeProcessorCount
            let workers = settings.hasPrefix("threads") ? expected : max(cores, expected)
            let listening = server.logs.all.first { $0.message == "HTTP server listening" }
            #expect(listening?.metadata["threads"]?.description == "\(workers)", "\(String(describing: listening))")
            #expect(try server.client().request("GET", "/healthz").status == 200)
        }

        @Test("the access log keeps query names and drops their values unless access_log_query is set")
        func accessLogWithoutQueryValues() async throws {
            for keepValues in [false, true] {
                let config = try TestConfig.demo()
                try config.writeSettings(try config.read("switchboard.yaml") + "access_log: true\naccess_log_query: \(keepValues)\n")
                let server = try await InProcessServer(config: config)
                _ = try server.client().resolve("shopapp://product/42?token=s3cret", extraQuery: "&device=d-123")
                let lines = server.logs.all.filter { $0.message == "request" }
                #expect(lines.count == 1, "\(lines)")
                let query = lines.first?.metadata["url.query"]?.description
                if keepValues {
                    #expect(query?.contains("s3cret") == true, "\(lines)")
                } else {
                    #expect(query == "url=*&device=*", "\(lines)")
                }
                #expect(lines.first?.metadata["url.path"]?.description == "/resolve", "\(lines)")
                #expect(!"\(lines)".contains("s3cret") || keepValues, "\(lines)")
            }
        }

        @Test("log_format: json writes one JSON object per line, the metadata as members")
        func jsonLogs() async throws {
            let config = try TestConfig.demo()
            try config.writeSettings(try config.read("switchboard.yaml") + "log_format: json\n")
            let process = try ServerProcess(config: config)
            var listening: [String: Any]?
            try await eventually(timeout: .seconds(15)) {
                listening = Self.objects(process.log).first { $0["message"] as? String == "switchboard listening" }
                return listening != nil || !process.process.isRunning
            }
            let line = try #require(listening, "\(process.log)")
            #expect(line["level"] as? String == "notice")
            #expect((line["address"] as? String)?.hasPrefix("127.0.0.1:") == true, "\(line)")
            #expect(line["time"] is String)
            let lines = process.log.split(separator: "\n")
            #expect(Self.objects(process.log).count == lines.count, "a line that is not a JSON object:\n\(process.log)")
        }

        static func objects(_ log: String) -> [[String: Any]] {
            log.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        }
    }
}
