import ArgumentParser
import SwitchboardServer

/// Why an admin command failed, and the exit status that says so.
enum AdminClientError: Error, CustomStringConvertible {
    /// Bad usage or input on this side (no server or token, a file that does not parse); nothing was sent.
    case usage(String)
    /// The server could not be reached (refused connection, timeout, name not found).
    case unreachable(server: String, reason: String)
    /// The server refused the request: the error it answered, with its status.
    case refused(APIError)
    /// The server answered something that is not the API's (not JSON, a missing version).
    case unexpectedAnswer(String)

    /// The exit status: ``ExitCode/badInput`` for what the caller must fix (usage, and the
    /// server's 4xx verdicts on the input), ``ExitCode/serverUnavailable`` for a server that is
    /// down, refuses the token, moved on (`412`) or fails (5xx).
    var exitCode: ExitCode {
        switch self {
        case .usage: .badInput
        case .unreachable, .unexpectedAnswer: .serverUnavailable
        case .refused(let error):
            [401, 403, 412].contains(error.status) || error.status >= 500 ? .serverUnavailable : .badInput
        }
    }

    var description: String {
        switch self {
        case .usage(let message): message
        case .unreachable(let server, let reason): "cannot reach \(server): \(reason)"
        case .refused(let error):
            (["the server refused (\(error.status) \(error.code)): \(error.message)"] + error.issues.map { "  \($0)" })
                .joined(separator: "\n")
        case .unexpectedAnswer(let message): "the server's answer is not the admin API's: \(message)"
        }
    }
}
