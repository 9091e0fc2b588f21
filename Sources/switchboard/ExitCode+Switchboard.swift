import ArgumentParser

/// The one exit-status rule of every command (docs/command-line.md "Exit status"):
///
/// | status | meaning |
/// |---|---|
/// | 0 | success |
/// | 1 | the command found problems (a check failed, a diff is not empty, a URL matched nothing) |
/// | 2 | bad input or usage: a config or file that cannot be read or is invalid, a bad flag |
/// | 3 | the server could not be reached, or refused (authentication, a 5xx answer) |
extension ExitCode {
    /// 1: the command ran and found problems.
    static let findings = ExitCode(1)
    /// 2: bad input or usage; nothing was done.
    static let badInput = ExitCode(2)
    /// 3: the server could not be reached or refused.
    static let serverUnavailable = ExitCode(3)

    /// The status a command ends with when `run()` throws `error`, or when parsing does:
    /// argument-parser's own usage errors (its status 64) and any error that is not an
    /// ``ExitCode`` are bad input; help and `--version` are success.
    static func status(for error: any Error, of command: any ParsableCommand.Type) -> ExitCode {
        if let code = error as? ExitCode { return code }
        let parserCode = command.exitCode(for: error)
        return parserCode == .success ? .success : .badInput
    }
}
