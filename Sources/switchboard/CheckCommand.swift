import ArgumentParser
import SwitchboardCore
import SwitchboardServer

/// `switchboard check [--config DIR]`: validates the config and lints its rules.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate the config directory: syntax, unknown keys, patterns, conflicts, regexes, templates, unreachable rules.",
        discussion: "Exit status: 0 when the config is valid, 1 otherwise. Warnings do not change the exit status."
    )

    @OptionGroup var options: ConfigOptions

    func run() throws {
        let report = ConfigCheck.run(configDirectory: options.config)
        for issue in report.errors { print("error: \(issue)") }
        for warning in report.warnings { print("warning: \(warning)") }
        if report.errors.isEmpty {
            print("ok: \(report.routeCount) routes, \(report.ruleCount) rules")
        } else {
            print("\(report.errors.count) error(s)")
            throw ExitCode(1)
        }
    }
}
