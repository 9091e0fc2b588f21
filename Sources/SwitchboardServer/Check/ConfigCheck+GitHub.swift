import Foundation

extension ConfigCheck.Report {
    /// GitHub Actions workflow commands, one per finding: `::error file=F,line=L,col=C,title=T::message`
    /// (a lint is a `::warning`, an `::error` with `strict`), then a plain summary line. The
    /// runner turns them into annotations on the file and line of the pull request.
    func githubCommands(strict: Bool) -> String {
        var lines = findings.map { finding in
            let command = finding.severity == .error || strict ? "error" : "warning"
            var properties: [(String, String)] = []
            if let path = finding.path { properties.append(("file", path)) }
            if let position = finding.issue.position {
                properties.append(("line", String(position.line)))
                properties.append(("col", String(position.column)))
            }
            properties.append(("title", finding.issue.item.map { "\(finding.code) '\($0)'" } ?? finding.code))
            let list = properties.map { "\($0)=\(Self.escapedProperty($1))" }.joined(separator: ",")
            return "::\(command) \(list)::\(Self.escapedData(finding.issue.message))"
        }
        lines.append(
            "switchboard check: \(errors.count) error(s), \(warnings.count) lint(s)\(fails(strict: strict) ? "" : ", ok")")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A workflow command's message: `%`, CR and LF escaped.
    private static func escapedData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A workflow command's property value: as a message, and `:` and `,` too.
    private static func escapedProperty(_ text: String) -> String {
        escapedData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
