import Foundation
import SwitchboardCore
import SwitchboardStore

/// `switchboard check`: everything that makes a config invalid, rules that can never fire,
/// failing examples (errors) and the lints of ``ConfigLint`` (warnings).
package enum ConfigCheck {
    /// The outcome of a check.
    package struct Report: Sendable {
        /// The config directory, as it was given.
        package var configDirectory: String
        /// The files checked, relative to the directory: `switchboard.yaml` and `rewrites.yaml`
        /// when present, then the route files in the order they load.
        package var files: [String] = []
        package var errors: [ConfigIssue] = []
        package var warnings: [ConfigIssue] = []
        package var routeCount = 0
        package var ruleCount = 0

        package init(configDirectory: String) {
            self.configDirectory = configDirectory
        }

        /// Whether the config could not be read at all, so that nothing was checked.
        package var isUnreadable: Bool { errors.contains(where: \.isUnreadable) }
    }

    package static func run(configDirectory: String) -> Report {
        var report = Report(configDirectory: configDirectory)
        report.files = files(in: configDirectory)
        do {
            let config = try ConfigDirectory.load(from: configDirectory)
            check(config, into: &report)
        } catch {
            report.errors = error.issues
        }
        locate(&report)
        return report
    }

    /// The files of the directory that a load reads, in the order it reads them.
    private static func files(in directory: String) -> [String] {
        let fileManager = FileManager.default
        let root = URL(fileURLWithPath: directory, isDirectory: true)
        let settings = ["switchboard.yaml", "rewrites.yaml"].filter {
            fileManager.fileExists(atPath: root.appendingPathComponent($0).path)
        }
        let names = (try? fileManager.contentsOfDirectory(atPath: root.appendingPathComponent("routes.d").path)) ?? []
        let routeFiles = names.sorted().filter { name in
            [".yaml", ".yml", ".json"].contains(where: name.hasSuffix) && !name.hasPrefix(".")
        }
        return settings + routeFiles.map { "routes.d/\($0)" }
    }

    /// Gives every finding about a named route or rule the place of its definition, when the
    /// finding has none yet (each file is parsed once, and only when it has such a finding).
    private static func locate(_ report: inout Report) {
        var texts: [String: String?] = [:]
        let root = URL(fileURLWithPath: report.configDirectory, isDirectory: true)
        func located(_ issue: ConfigIssue) -> ConfigIssue {
            guard issue.position == nil, let file = issue.file, let item = issue.item else { return issue }
            if texts[file] == nil {
                texts[file] = .some(try? String(contentsOf: root.appendingPathComponent(file), encoding: .utf8))
            }
            guard let text = texts[file] ?? nil else { return issue }
            var issue = issue
            issue.position = SourcePosition.ofItem(item, in: text)
            return issue
        }
        report.errors = report.errors.map(located)
        report.warnings = report.warnings.map(located)
    }

    private static func check(_ config: ConfigDirectory, into report: inout Report) {
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
                            message: "rule #\(index) can never fire: rule #\(between) '\(earlier.id)' has the same match and last: true",
                            code: "unreachable_rule"))
                    break
                }
                if !earlier.last { break }
                between -= 1
            }
        }
        return issues
    }
}
