import ArgumentParser
import Foundation
import SwitchboardCore
import SwitchboardServer

/// `switchboard resolve [--config DIR] URL`: prints exactly what `GET /resolve` returns.
struct ResolveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Resolve one URL against the config (and the persisted admin state).",
        discussion:
            "Prints the /resolve JSON (with --explain, plus its trace). Exit status: 0 matched, 1 not matched, 2 bad input (malformed URL or a config that does not load)."
    )

    @OptionGroup var options: ConfigOptions

    @Flag(name: .long, help: "Add a trace: each rewrite rule tried and what happened, and the router's walk.")
    var explain = false

    @Argument(help: "The URL to resolve.")
    var url: String

    func run() throws {
        let snapshot: Snapshot
        do {
            snapshot = try SnapshotLoader.load(configDirectory: options.config).snapshot
        } catch {
            StandardError.write("switchboard: the config does not load:\n\(error)")
            throw ExitCode(2)
        }
        do {
            // Time-window rules apply as they would in the server now.
            let context = RequestContext(now: Date().timeIntervalSince1970)
            let resolution = try snapshot.resolver.resolve(url, context: context)
            if explain, case .object(var members) = resolution.json {
                members.append(("trace", try snapshot.resolver.explain(url, context: context).1.json))
                print(JSONValue.object(members).jsonText)
            } else {
                print(String(decoding: resolution.jsonBytes, as: UTF8.self))
            }
            throw ExitCode(resolution.matched ? 0 : 1)
        } catch let error as ResolveError {
            StandardError.write("switchboard: \(error.message)")
            throw ExitCode(2)
        }
    }
}
