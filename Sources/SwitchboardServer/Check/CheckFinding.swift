/// One finding of `switchboard check` as every output format prints it: how serious it is,
/// the issue, and the path of its file as seen from the working directory.
package struct CheckFinding: Sendable, Hashable {
    /// How serious a finding is.
    package enum Severity: String, Sendable, Hashable {
        /// The config is invalid or a config test fails: the check fails.
        case error
        /// Likely a mistake (see docs/command-line.md "Checking a config"): the check fails
        /// only with `--strict`.
        case lint
    }

    package var severity: Severity
    package var issue: ConfigIssue
    /// The issue's file joined to the config directory (the directory itself when the issue is
    /// about it), or `nil` for an issue of no file.
    package var path: String?
}

extension ConfigCheck.Report {
    /// Errors, then lints, each with the path a pipeline can open.
    package var findings: [CheckFinding] {
        errors.map { CheckFinding(severity: .error, issue: $0, path: path(of: $0.file)) }
            + warnings.map { CheckFinding(severity: .lint, issue: $0, path: path(of: $0.file)) }
    }

    /// Whether the check fails: any error, or any lint when `strict`.
    package func fails(strict: Bool) -> Bool {
        !errors.isEmpty || (strict && !warnings.isEmpty)
    }

    /// `file` as seen from the working directory: inside the config directory, unless it is
    /// the directory itself or an absolute path.
    package func path(of file: String?) -> String? {
        guard let file else { return nil }
        if file == configDirectory || file.hasPrefix("/") { return file }
        return configDirectory.hasSuffix("/") ? configDirectory + file : configDirectory + "/" + file
    }
}
