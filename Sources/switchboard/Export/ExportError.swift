import ArgumentParser

/// Why `switchboard export` wrote nothing.
enum ExportError: Error, CustomStringConvertible {
    /// Bad input: a config that does not load, an output directory in use, a name clash.
    case badInput(String)
    /// The database could not be reached.
    case unavailable(String)
    /// Reading from a server failed.
    case admin(AdminClientError)

    var exitCode: ExitCode {
        switch self {
        case .badInput: .badInput
        case .unavailable: .serverUnavailable
        case .admin(let error): error.exitCode
        }
    }

    var description: String {
        switch self {
        case .badInput(let message), .unavailable(let message): message
        case .admin(let error): error.description
        }
    }
}
