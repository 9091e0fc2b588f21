import ArgumentParser
import Foundation
import SwitchboardServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `switchboard healthcheck`: asks a running server's `/livez` and exits 0 when it answers
/// 2xx, 3 when it cannot be reached or answers anything else. The image's `HEALTHCHECK` runs
/// it, so that the runtime image needs no HTTP tool only for its health check. It asks in plain
/// HTTP: with `tls` on the listener it would ask, give `--address` a plain one (docs/operations.md).
struct HealthcheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthcheck",
        abstract: "Ask a server's /livez (a container's health check).",
        discussion: """
            Exits 0 when the server answers 2xx, 3 when it cannot be reached or answers anything else. The \
            address is --address, else SWITCHBOARD_LISTEN, else 127.0.0.1:8080; a wildcard host (0.0.0.0, ::) \
            is asked on loopback. It asks in plain HTTP.
            """
    )

    @Option(help: "The server's host:port; defaults to SWITCHBOARD_LISTEN, else 127.0.0.1:8080.")
    var address: String?

    @Option(help: "The path to ask.")
    var path: String = "/livez"

    @Option(help: ArgumentHelp("Seconds to wait for the answer.", valueName: "seconds"))
    var timeout: Int = 2

    func validate() throws {
        guard path.hasPrefix("/"), !path.contains(where: { $0 == "\r" || $0 == "\n" || $0 == " " }) else {
            throw ValidationError("--path must start with / and hold no spaces or line breaks")
        }
        guard (1...60).contains(timeout) else { throw ValidationError("--timeout must be between 1 and 60 seconds") }
    }

    func run() async throws {
        let given = address ?? ProcessEnvironment.value(of: "SWITCHBOARD_LISTEN") ?? "127.0.0.1:8080"
        guard let target = HealthcheckTarget(listenAddress: given), let url = URL(string: "http://\(target)\(path)") else {
            StandardError.write("switchboard healthcheck: '\(given)' is not host:port (127.0.0.1:8080, [::1]:8080)")
            throw ExitCode.badInput
        }
        let status: Int
        do {
            status = try await HTTPClient.send(URLRequest(url: url, timeoutInterval: TimeInterval(timeout))).response.statusCode
        } catch {
            StandardError.write("switchboard healthcheck: \(target)\(path) could not be reached: \(error.localizedDescription)")
            throw ExitCode.serverUnavailable
        }
        guard (200..<300).contains(status) else {
            StandardError.write("switchboard healthcheck: \(target)\(path) answered \(status)")
            throw ExitCode.serverUnavailable
        }
    }
}
