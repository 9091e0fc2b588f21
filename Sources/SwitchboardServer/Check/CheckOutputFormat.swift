import SwitchboardCore

/// How `switchboard check` prints its report (docs/command-line.md "Output for CI").
package enum CheckOutputFormat: String, Sendable, CaseIterable {
    /// One line per finding (`error: FILE:LINE:COLUMN: 'id': message`), then a summary line.
    case text
    /// One JSON object: the summary and a `findings` array, one object per finding.
    case json
    /// GitHub Actions workflow commands (`::error file=…,line=…,col=…,title=…::message`), which
    /// annotate the file and line of a pull request.
    case github
    /// A JUnit XML test report: one test case per route file and per rules file.
    case junit

    /// The report in this format; `strict` makes lints failures (as the exit status does).
    package func render(_ report: ConfigCheck.Report, strict: Bool) -> String {
        switch self {
        case .text: report.text(strict: strict)
        case .json: report.json(strict: strict).jsonText + "\n"
        case .github: report.githubCommands(strict: strict)
        case .junit: report.junitXML(strict: strict)
        }
    }
}
