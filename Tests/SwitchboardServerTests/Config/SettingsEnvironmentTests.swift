import Foundation
import Logging
import SwitchboardTestSupport
import Testing

@testable import SwitchboardServer

/// Every start-only setting can come from the environment; precedence: flag > environment >
/// `switchboard.yaml` > default.
@Suite("Settings from the environment", .blockingIO)
struct SettingsEnvironmentTests {
    static func load(_ yaml: String, _ environment: [String: String]) throws -> Result<ServerSettings, ConfigIssues> {
        let directory = try TemporaryDirectory()
        try directory.write("switchboard.yaml", yaml)
        do throws(ConfigIssues) {
            return .success(try ConfigDirectory.load(from: directory.path, environment: environment).settings)
        } catch {
            return .failure(error)
        }
    }

    @Test("one variable per start-only key, from the table of keys: SWITCHBOARD_ and its path in capitals")
    func entries() {
        let variables = Set(SettingsEnvironment.entries.map(\.variable))
        for variable in [
            "SWITCHBOARD_LISTEN", "SWITCHBOARD_DATA_DIR", "SWITCHBOARD_LOG_FORMAT", "SWITCHBOARD_STORE", "SWITCHBOARD_THREADS",
            "SWITCHBOARD_ACCESS_LOG", "SWITCHBOARD_DRAIN_SECONDS", "SWITCHBOARD_LIMITS_MAX_CONNECTIONS", "SWITCHBOARD_TRAFFIC_SAMPLE",
        ] {
            #expect(variables.contains(variable), "\(variable)")
        }
        // Settings that a reload applies stay in the file, where a reload reads them.
        #expect(!variables.contains("SWITCHBOARD_HISTORY_LIMIT") && !variables.contains("SWITCHBOARD_LIMITS_MAX_ROUTES"))
        let startOnly = Set(ServerSettings.keys.flatMap(\.startOnlyPaths).map { $0.joined(separator: ".") })
        #expect(startOnly.count == SettingsEnvironment.entries.count)
    }

    @Test("the environment wins over switchboard.yaml, which wins over the default; an empty variable is ignored")
    func precedence() throws {
        let yaml = "listen: \"127.0.0.1:9000\"\ndata_dir: ./from-yaml\nlimits: { max_connections: 50 }\nhistory_limit: 7\n"
        let settings = try Self.load(
            yaml,
            [
                "SWITCHBOARD_LISTEN": "0.0.0.0:8080", "SWITCHBOARD_DATA_DIR": "", "SWITCHBOARD_LIMITS_MAX_CONNECTIONS": "2000",
                "SWITCHBOARD_ACCESS_LOG": "true", "SWITCHBOARD_HISTORY_LIMIT": "9", "SWITCHBOARD_SCHEMES": "[other]",
                "SWITCHBOARD_TRAFFIC_SAMPLE": "{urls: 0}",
            ]
        ).get()
        #expect(settings.listen == "0.0.0.0:8080")
        #expect(settings.dataDir == "./from-yaml")
        #expect(settings.limits.maxConnections == 2000)
        #expect(settings.accessLog == true)
        #expect(settings.trafficSample.urls == 0)
        #expect(settings.historyLimit == 7, "a setting a reload applies is not read from the environment")
        #expect(settings.logFormat == .text)
        // A scalar is taken as written: a `#` is not a comment.
        let written = try Self.load("", ["SWITCHBOARD_DATA_DIR": "./data #1", "SWITCHBOARD_THREADS": "3"]).get()
        #expect(written.dataDir == "./data #1" && written.threads == 3)
    }

    @Test("a value its key refuses is an issue naming the variable")
    func refusedValues() throws {
        for (variable, value) in [("SWITCHBOARD_LIMITS_MAX_CONNECTIONS", "many"), ("SWITCHBOARD_LOG_FORMAT", "xml")] {
            let result = try Self.load("", [variable: value])
            guard case .failure(let issues) = result else {
                Issue.record("\(variable)=\(value) was accepted")
                continue
            }
            #expect(issues.issues.map(\.file) == ["environment"] && issues.issues.first?.item == variable, "\(issues)")
        }
    }

    @Test("a server started with settings from the environment serves them, and a reload sees no change to restart for")
    func serverUsesTheEnvironment() async throws {
        let config = try TestConfig.demo()
        let server = try await InProcessServer(config: config, environment: ["SWITCHBOARD_ACCESS_LOG": "true"])
        let client = try server.client()
        _ = try client.request("GET", "/healthz")
        #expect(server.logs.all.contains { $0.message == "request" }, "the access log is on")
        let reload = try client.admin("POST", "/admin/reload")
        #expect(reload.status == 200, "\(reload.dump)")
        let status = try client.admin("GET", "/admin/status").json
        let lastReload = status["lastReload"] as? [String: Any]
        #expect(lastReload?["restartRequired"] as? [String] == [], "\(status)")
    }
}
