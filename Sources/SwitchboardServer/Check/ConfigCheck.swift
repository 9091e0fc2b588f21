import SwitchboardCore
import SwitchboardStore

/// `switchboard check`: everything that makes a config invalid, rules that can never fire,
/// failing examples (errors) and the lints of ``ConfigLint`` (warnings).
package enum ConfigCheck {
    /// The outcome of a check.
    package struct Report: Sendable {
        package var errors: [ConfigIssue] = []
        package var warnings: [ConfigIssue] = []
        package var routeCount = 0
        package var ruleCount = 0
    }

    package static func run(configDirectory: String) -> Report {
        var report = Report()
        let config: ConfigDirectory
        do {
            config = try ConfigDirectory.load(from: configDirectory)
        } catch {
            report.errors = error.issues
            return report
        }
        report.routeCount = config.routeFiles.reduce(0) { $0 + $1.file.routes.count }
        report.ruleCount = config.rewriteRules.count
        report.errors += unreachableRules(config.rewriteRules)
        do {
            let snapshot = try Snapshot.build(config: config, admin: AdminState())
            let findings = ConfigLint.run(config: config, snapshot: snapshot)
            report.errors += findings.errors
            report.warnings += findings.warnings
        } catch {
            report.errors += error.issues
        }
        return report
    }

    /// A rule can never fire when an earlier rule without `when` has the same `match`, is `last`, and no
    /// rule between them can change the URL and go on (`last: false`): whenever the later
    /// rule would match, the earlier one matched the same URL and stopped the pass.
    static func unreachableRules(_ rules: [RewriteRule]) -> [ConfigIssue] {
        var issues: [ConfigIssue] = []
        for (index, rule) in rules.enumerated() {
            var between = index - 1
            while between >= 0 {
                let earlier = rules[between]
                // A conditional rule may be skipped, so it hides nothing.
                if earlier.match == rule.match, earlier.last, earlier.when == nil {
                    issues.append(
                        ConfigIssue(
                            file: "rewrites.yaml", item: rule.id,
                            message: "rule #\(index) can never fire: rule #\(between) '\(earlier.id)' has the same match and last: true"))
                    break
                }
                if !earlier.last { break }
                between -= 1
            }
        }
        return issues
    }
}
