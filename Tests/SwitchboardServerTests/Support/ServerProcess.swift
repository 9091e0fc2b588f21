import Foundation
import SwitchboardTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `switchboard serve --config DIR --listen 127.0.0.1:0` as a child process (for kill -9,
/// SIGTERM and SIGHUP), with its stdout and stderr in a log file next to the config.
final class ServerProcess {
    let config: TestConfig
    let process: ChildProcess
    let logPath: String
    /// The port it listens on, read from its log (0 until ``waitUntilListening()``).
    private(set) var port = 0

    /// The built `switchboard` executable: `$SWITCHBOARD_BINARY`, else next to the test
    /// bundle (`.build/<triple>/debug/`), else `.build/debug/switchboard` in the repository.
    static func binaryPath() throws -> String {
        let manager = FileManager.default
        var candidates: [String] = []
        if let explicit = ProcessInfo.processInfo.environment["SWITCHBOARD_BINARY"] { candidates.append(explicit) }
        for executable in [try? manager.destinationOfSymbolicLink(atPath: "/proc/self/exe"), Bundle.main.executablePath] {
            if let executable {
                candidates.append(URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("switchboard").path)
            }
        }
        candidates.append(Repository.root.appendingPathComponent(".build/debug/switchboard").path)
        guard let found = candidates.first(where: { manager.isExecutableFile(atPath: $0) }) else {
            throw TestSetupError("no switchboard executable (run `swift build --build-tests`); looked at \(candidates)")
        }
        return found
    }

    /// Starts the process; call ``waitUntilListening()`` before talking to it.
    /// - Parameters:
    ///   - token: the admin token; `nil` leaves the variable unset.
    ///   - logName: the log file, in the test's temporary directory (one per start).
    init(config: TestConfig, token: String? = TestToken.admin, environment extra: [String: String] = [:], logName: String = "server.log")
        throws
    {
        self.config = config
        logPath = config.root.path + "/" + logName
        guard FileManager.default.createFile(atPath: logPath, contents: nil) else {
            throw TestSetupError("cannot create \(logPath)")
        }
        var environment = extra.merging(["PATH": "/usr/bin:/bin"]) { _, path in path }
        if let token { environment["SWITCHBOARD_ADMIN_TOKEN"] = token }
        // Killed and reaped when this object goes (`ChildProcess`'s deinit).
        process = try ChildProcess(
            try Self.binaryPath(), ["serve", "--config", config.directory, "--listen", "127.0.0.1:0"],
            environment: environment, directory: config.root.path, standardOutput: .file(logPath),
            standardError: .file(logPath))
    }

    /// Everything it logged so far.
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Waits for `switchboard listening address=127.0.0.1:PORT` and returns the port.
    @discardableResult
    func waitUntilListening(timeout: Duration = .seconds(15)) async throws -> Int {
        var found = 0
        let listening = try await eventually(timeout: timeout) {
            found = Self.listeningPort(in: log) ?? 0
            return found != 0 || !process.isRunning
        }
        guard listening, found != 0 else {
            throw TestSetupError("switchboard did not start listening (running: \(process.isRunning)); log:\n\(log)")
        }
        port = found
        return found
    }

    static func listeningPort(in log: String) -> Int? {
        for line in log.split(separator: "\n") where line.contains("switchboard listening") {
            guard let range = line.range(of: "address=127.0.0.1:") else { continue }
            let digits = line[range.upperBound...].prefix { $0.isNumber }
            if let port = Int(digits) { return port }
        }
        return nil
    }

    /// A new keep-alive connection.
    func client(timeout: Duration = .seconds(10)) throws -> HTTPTestClient {
        try HTTPTestClient(port: port, timeout: timeout)
    }

    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the process to end; `nil` if it is still running after `timeout`.
    func waitForExit(timeout: Duration = .seconds(15)) async throws -> (
        reason: ChildProcess.TerminationReason, status: Int32
    )? {
        guard try await eventually(timeout: timeout, { !process.isRunning }) else { return nil }
        return process.waitUntilExit()
    }
}
