extension ConfigCheck.Report {
    /// The text report: `error: FILE:LINE:COLUMN: 'id': message` per error, `warning: …` per
    /// lint, then one summary line.
    func text(strict: Bool) -> String {
        var lines = findings.map { finding in
            let label = finding.severity == .error ? "error" : "warning"
            let place = finding.path.map { path in finding.issue.position.map { "\(path):\($0)" } ?? path }
            let parts = [place, finding.issue.item.map { "'\($0)'" }, finding.issue.message]
            return "\(label): " + parts.compactMap { $0 }.joined(separator: ": ")
        }
        let warningCount = warnings.isEmpty ? "" : ", \(warnings.count) warning(s)"
        if !errors.isEmpty {
            lines.append("\(errors.count) error(s)\(warningCount)")
        } else if fails(strict: strict) {
            lines.append("\(warnings.count) warning(s), which fail with --strict")
        } else {
            lines.append("ok: \(routeCount) routes, \(ruleCount) rules\(warningCount)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
