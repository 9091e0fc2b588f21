import ArgumentParser
import Foundation
import SwitchboardCore
import SwitchboardServer

/// `switchboard codegen swift [--config DIR] [--output FILE] [--type-name NAME]`.
struct CodegenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codegen",
        abstract: "Generate code from the config's routes.",
        subcommands: [Swift.self]
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
            let source: String
            do {
                let config = try ConfigDirectory.load(from: options.config)
                let routes = config.routeFiles.flatMap { loaded in loaded.file.routes.map { $0.route(module: loaded.file.module) } }
                source = try SwiftRouteEnumGenerator(
                    typeName: typeName, schemes: config.settings.schemes, domains: config.settings.domains
                ).generate(routes: routes)
            } catch {
                StandardError.write("switchboard: \(error)")
                throw ExitCode(2)
            }
            guard let output else {
                print(source, terminator: "")
                return
            }
            do {
                try Data(source.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                StandardError.write("switchboard: cannot write \(output): \(error.localizedDescription)")
                throw ExitCode(2)
            }
        }
    }
}
