import ArgumentParser
import Foundation
import SwitchboardServer

/// `switchboard healthcheck`: asks a running server's `/livez` and exits 0 when it answers
/// 2xx, 3 when it cannot be reached or answers anything else. The image's `HEALTHCHECK` runs
/// it, so that the runtime image needs no HTTP client only for its health check.
struct HealthcheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthcheck",
        abstract: "Ask a running server's /livez; exit 0 if it answers 2xx, 3 if not (for a container's HEALTHCHECK).",
        discussion: """
            The address is --address, else SWITCHBOARD_LISTEN, else 127.0.0.1:8080; a wildcard host (0.0.0.0, ::) \
            is asked on loopback.
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

    func run() throws {
        let given = address ?? ProcessEnvironment.value(of: "SWITCHBOARD_LISTEN") ?? "127.0.0.1:8080"
        guard let target = HealthProbe.Target(listenAddress: given) else {
            StandardError.write("switchboard healthcheck: '\(given)' is not host:port (127.0.0.1:8080, [::1]:8080)")
            throw ExitCode(2)
        }
        do {
            let status = try HealthProbe.status(of: target, path: path, timeoutSeconds: timeout)
            guard (200..<300).contains(status) else {
                StandardError.write("switchboard healthcheck: \(target.description)\(path) answered \(status)")
                throw ExitCode(3)
            }
        } catch let error as HealthProbe.Failure {
            StandardError.write("switchboard healthcheck: \(target.description)\(path): \(error.reason)")
            throw ExitCode(3)
        }
    }
}
