extension ConfigCheck.Report {
    /// A JUnit XML report: one test case per file checked (settings, rules, each route file),
    /// plus one for findings of no file. A test case fails with its errors (and its lints when
    /// `strict`); lints that do not fail are its `system-out`.
    func junitXML(strict: Bool) -> String {
        let findings = self.findings
        var names = files.compactMap { path(of: $0) }
        for finding in findings where !names.contains(finding.path ?? Self.noFileCase) {
            names.append(finding.path ?? Self.noFileCase)
        }
        var cases: [String] = []
        var failed = 0
        for name in names {
            let own = findings.filter { ($0.path ?? Self.noFileCase) == name }
            let failing = own.filter { $0.severity == .error || strict }
            let passing = own.filter { !($0.severity == .error || strict) }
            var body = ""
            if !failing.isEmpty {
                failed += 1
                let first = failing[0]
                body += "      <failure type=\"\(MarkupText.escaped(first.code))\" message=\"\(MarkupText.escaped(Self.line(first)))\">"
                body += MarkupText.escaped(failing.map(Self.line).joined(separator: "\n")) + "</failure>\n"
            }
            if !passing.isEmpty {
                body += "      <system-out>" + MarkupText.escaped(passing.map(Self.line).joined(separator: "\n")) + "</system-out>\n"
            }
            let open =
                "    <testcase classname=\"switchboard.check\" name=\"\(MarkupText.escaped(name))\" file=\"\(MarkupText.escaped(name))\""
            cases.append(body.isEmpty ? open + "/>" : open + ">\n" + body + "    </testcase>")
        }
        let counts = "tests=\"\(names.count)\" failures=\"\(failed)\" errors=\"0\""
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="switchboard check" \(counts)>
              <testsuite name="switchboard check" \(counts)>
            \(cases.joined(separator: "\n"))
              </testsuite>
            </testsuites>

            """
    }

    /// The test case of findings that name no file.
    private static let noFileCase = "config"

    /// `LINE:COLUMN: [code] 'id': message` for one finding.
    private static func line(_ finding: CheckFinding) -> String {
        let parts = [
            finding.issue.position?.description, "[\(finding.severity.rawValue) \(finding.code)]",
            finding.issue.item.map { "'\($0)'" }, finding.issue.message,
        ]
        return parts.compactMap { $0 }.joined(separator: " ")
    }

}
