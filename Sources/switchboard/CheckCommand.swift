import ArgumentParser
import SwitchboardCore
import SwitchboardServer

/// `switchboard check [--config DIR] [--format text|json|github|junit] [--strict]`: validates
/// the config and lints its rules.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate and lint a config; CI output formats.",
        discussion: """
            Every finding names its file, and its line and column where known. Errors (an invalid config, \
            failing examples) fail the check; lints (shadowed rules, unreachable routes, dead targets, \
            constraint overlaps) fail it only with --strict. Exit status: 0 passed, 1 the check found \
            problems, 2 the config directory or a file of it cannot be read, or bad usage.
            """
    )

    @OptionGroup var options: ConfigOptions

    @Option(help: "text, json (one object per finding), github (workflow annotations) or junit (XML test report).")
    var format: CheckOutputFormat = .text

    @Flag(help: "Lints fail the check too.")
    var strict = false

    func run() throws {
        let report = ConfigCheck.run(configDirectory: options.config)
        print(format.render(report, strict: strict), terminator: "")
        if report.isUnreadable {
            StandardError.write("switchboard check: the config directory \(options.config) cannot be read; nothing was checked")
            throw ExitCode.badInput
        }
        if report.fails(strict: strict) { throw ExitCode.findings }
    }
}

extension CheckOutputFormat: ExpressibleByArgument {}
