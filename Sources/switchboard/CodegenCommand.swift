import ArgumentParser
import Foundation
import SwitchboardCore
import SwitchboardServer

/// `switchboard codegen swift|kotlin [--config DIR] [--output FILE] [--type-name NAME]`.
struct CodegenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codegen",
        abstract: "Generate Swift or Kotlin types from the routes.",
        subcommands: [Swift.self, Kotlin.self]
    )

    /// `codegen swift`: a Swift enum with one case per route.
    struct Swift: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "swift",
            abstract: "Write a Swift enum with one case per route: typed params, `url` and `init?(url:)`.",
            discussion:
                "Reads the route files of the config directory (not admin-pushed routes). Exit status: 0 written, 2 when the config does not load or a route cannot be typed."
        )

        @OptionGroup var options: ConfigOptions

        @Option(name: .long, help: "Write the Swift file here instead of standard output.")
        var output: String?

        @Option(name: .customLong("type-name"), help: "The enum's name.")
        var typeName: String = "AppRoute"

        func run() throws {
            try CodegenCommand.generate(config: options.config, output: output) { routes, settings in
                try SwiftRouteEnumGenerator(typeName: typeName, schemes: settings.schemes, domains: settings.domains)
                    .generate(routes: routes)
            }
        }
    }

    /// `codegen kotlin`: a Kotlin sealed class with one subclass per route.
    struct Kotlin: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "kotlin",
            abstract: "Write a Kotlin sealed class with one subclass per route: typed params, `url` and `parse(url)`.",
            discussion:
                "Reads the route files of the config directory (not admin-pushed routes). Exit status: 0 written, 2 when the config does not load or a route cannot be typed."
        )

        @OptionGroup var options: ConfigOptions

        @Option(name: .long, help: "Write the Kotlin file here instead of standard output.")
        var output: String?

        @Option(name: .customLong("type-name"), help: "The sealed class's name.")
        var typeName: String = "AppRoute"

        @Option(name: .customLong("package"), help: "The Kotlin package of the file (none when omitted).")
        var packageName: String?

        func run() throws {
            try CodegenCommand.generate(config: options.config, output: output) { routes, settings in
                try KotlinRouteClassGenerator(
                    typeName: typeName, packageName: packageName, schemes: settings.schemes, domains: settings.domains
                ).generate(routes: routes)
            }
        }
    }

    /// Loads the config's route files, generates the source and writes it to `output` (or
    /// standard output); any failure is reported on standard error with exit status 2.
    private static func generate(
        config directory: String, output: String?,
        _ generator: ([Route], ServerSettings) throws -> String
    ) throws {
        let source: String
        do {
            let config = try ConfigDirectory.load(from: directory)
            let routes = config.routeFiles.flatMap { loaded in loaded.file.routes.map { $0.route(module: loaded.file.module) } }
            source = try generator(routes, config.settings)
        } catch {
            StandardError.write("switchboard: \(error)")
            throw ExitCode.badInput
        }
        guard let output else {
            print(source, terminator: "")
            return
        }
        do {
            try Data(source.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            StandardError.write("switchboard: cannot write \(output): \(error.localizedDescription)")
            throw ExitCode.badInput
        }
    }
}
