import ArgumentParser
import SwitchboardCore
import SwitchboardServer

/// `switchboard check [--config DIR]`: validates the config and lints its rules.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract:
            "Validate the config directory and run its examples; lint for shadowed rules, unreachable routes, dead targets and constraint overlaps.",
        discussion:
            "Errors (invalid config, failing examples) are listed first, then warnings. Exit status: 0 when there is no error (warnings allowed), 1 otherwise."
    )

    @OptionGroup var options: ConfigOptions

    func run() throws {
        let report = ConfigCheck.run(configDirectory: options.config)
        for issue in report.errors { print("error: \(issue)") }
        for warning in report.warnings { print("warning: \(warning)") }
        let warnings = report.warnings.isEmpty ? "" : ", \(report.warnings.count) warning(s)"
        if report.errors.isEmpty {
            print("ok: \(report.routeCount) routes, \(report.ruleCount) rules\(warnings)")
        } else {
            print("\(report.errors.count) error(s)\(warnings)")
            throw ExitCode(1)
        }
    }
}
