import Foundation
import SwitchboardTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The repository's root, found from this file's path.
enum Repository {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // SwitchboardServerTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// `config/`, the demo config.
    static var demoConfig: URL { root.appendingPathComponent("config", isDirectory: true) }

    /// `openapi.yaml`.
    static var openAPI: URL { root.appendingPathComponent("openapi.yaml") }
}

/// A config directory of its own for one test, with `data_dir` in the same temporary
/// directory and `listen` on a free loopback port; both are removed with the value.
///
/// ```
/// <tmp>/config/switchboard.yaml, routes.d/, rewrites.yaml
/// <tmp>/data/state.json
/// ```
final class TestConfig: Sendable {
    let root: TemporaryDirectory
    var directory: String { root.path + "/config" }
    var dataDirectory: String { root.path + "/data" }
    var stateFile: String { dataDirectory + "/state.json" }

    private init() throws {
        root = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: root.path + "/config/routes.d", withIntermediateDirectories: true)
    }

    /// A copy of the repository's demo `config/`.
    static func demo() throws -> TestConfig {
        let config = try TestConfig()
        let source = Repository.demoConfig.path
        let manager = FileManager.default
        for name in ["rewrites.yaml"] + (try manager.contentsOfDirectory(atPath: source + "/routes.d")).map({ "routes.d/" + $0 }) {
            try manager.copyItem(atPath: source + "/" + name, toPath: config.directory + "/" + name)
        }
        let settings = try String(contentsOfFile: source + "/switchboard.yaml", encoding: .utf8)
        try config.writeSettings(settings)
        return config
    }

    /// A small config: `shopapp` links, the given route files (name → YAML) and `rewrites.yaml`.
    static func minimal(routes: [String: String], rewrites: String? = nil, settings: String = "") throws -> TestConfig {
        let config = try TestConfig()
        try config.writeSettings("schemes: [shopapp]\n" + settings)
        for (name, text) in routes { try config.write("routes.d/\(name)", text) }
        if let rewrites { try config.write("rewrites.yaml", rewrites) }
        return config
    }

    /// Writes `switchboard.yaml` from `text`, with `listen` and `data_dir` replaced, and
    /// `drain_seconds` as the last line of `text` that sets it, else 0 (tests stop servers
    /// without waiting).
    func writeSettings(_ text: String) throws {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let drain = lines.last { $0.hasPrefix("drain_seconds:") } ?? "drain_seconds: 0"
        let kept = lines.filter { !$0.hasPrefix("listen:") && !$0.hasPrefix("data_dir:") && !$0.hasPrefix("drain_seconds:") }
        let settings =
            kept.joined(separator: "\n") + "\nlisten: \"127.0.0.1:0\"\ndata_dir: \"\(dataDirectory)\"\n\(drain)\n"
        try write("switchboard.yaml", settings)
    }

    /// Replaces a file of the config directory atomically (temp file, then rename), so a
    /// reload never reads it half written.
    func write(_ relativePath: String, _ text: String) throws {
        let path = directory + "/" + relativePath
        let temporary = directory + "/.tmp-\(UUID().uuidString)"
        try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else {
            throw TestSetupError("rename \(temporary) -> \(path): \(String(cString: strerror(errno)))")
        }
    }

    func read(_ relativePath: String) throws -> String {
        try String(contentsOfFile: directory + "/" + relativePath, encoding: .utf8)
    }
}

/// Polls `condition` every `interval` until it holds or `timeout` passes (no fixed sleeps).
///
/// Sleeps by blocking its thread, so use it in `.blockingIO` tests: `Task.sleep` resumes
/// only when the cooperative pool has a free thread, which CPU-bound suites can hold for
/// seconds on a small machine.
/// - Returns: whether it held.
@discardableResult
func eventually(
    timeout: Duration = .seconds(5), interval: Duration = .milliseconds(20), _ condition: () throws -> Bool
) async throws -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    let microseconds = UInt32(interval.components.seconds * 1_000_000 + interval.components.attoseconds / 1_000_000_000_000)
    while true {
        if try condition() { return true }
        if clock.now >= deadline { return false }
        _ = usleep(microseconds)
    }
}
