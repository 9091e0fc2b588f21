import ArgumentParser
import Foundation
import SwitchboardCore
import SwitchboardServer
import SwitchboardStore

/// `switchboard diff --config A --against B --urls FILE [--format text|json]`: which links of a
/// file would go somewhere else if config directory B replaced A, the report of
/// `POST /admin/preview` made offline. Both directories are built without admin state.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Report the URLs whose answer two configs change.",
        discussion: """
            FILE has one URL per line; blank lines and lines starting with # are skipped. --config is \
            the config in force, --against the candidate. Admin state (rules and routes pushed over the \
            API) is not part of either side. Rules with a time window are tried at the present time.
            Exit status: 0 when no URL changes, 1 when any does, 2 when a config or the file cannot be read.
            """
    )

    /// How the report is printed.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        /// A summary, then each group with its examples.
        case text
        /// The JSON of `POST /admin/preview` without `version`.
        case json
    }

    @Option(name: .long, help: "The config directory in force (before).")
    var config: String

    @Option(name: .long, help: "The candidate config directory (after).")
    var against: String

    @Option(name: .long, help: "A file of URLs, one per line.")
    var urls: String

    @Option(help: "text or json.")
    var format: Format = .text

    @Option(help: "Examples shown per group (1 to 50).")
    var examples: Int = 5

    @Option(help: "The platform every URL is resolved for (ios, android or web).")
    var platform: String?

    @Option(help: "The app version every URL is resolved for, such as 5.3.0.")
    var appVersion: String?

    func validate() throws {
        guard (1...50).contains(examples) else { throw ValidationError("--examples must be from 1 to 50") }
        if let platform, !["ios", "android", "web"].contains(platform.lowercased()) {
            throw ValidationError("--platform must be ios, android or web, not '\(platform)'")
        }
        if let appVersion, SemanticVersion(appVersion) == nil {
            throw ValidationError("--app-version '\(appVersion)' is not a version such as 5.3.0")
        }
    }

    func run() throws {
        let before = try Self.resolver(config, role: "--config")
        let after = try Self.resolver(against, role: "--against")
        let requests = try Self.requests(urls).map {
            SampledRequest(url: $0, platform: platform?.lowercased(), appVersion: appVersion)
        }
        let report = ImpactReport.compare(
            requests, before: before, after: after, now: Date().timeIntervalSince1970, examples: examples)
        let change = ChangeSummary(from: before, to: after)
        switch format {
        case .json:
            print(JSONValue.object([("change", change.json)] + report.jsonMembers).jsonText)
        case .text:
            print(report.text(change: change), terminator: "")
        }
        if report.changed > 0 { throw ExitCode.findings }
    }

    /// The resolver of a config directory, without admin state.
    ///
    /// - Throws: `ExitCode.badInput` after saying why on standard error.
    private static func resolver(_ directory: String, role: String) throws -> Resolver {
        do {
            let config = try ConfigDirectory.load(from: directory)
            return try Snapshot.build(config: config, admin: AdminState()).resolver
        } catch {
            StandardError.write("switchboard diff: the config of \(role) \(directory) does not load:\n\(error)")
            throw ExitCode.badInput
        }
    }

    /// The URLs of `path`: one per line, blank lines and `#` comments skipped.
    ///
    /// - Throws: `ExitCode.badInput` after saying why on standard error.
    private static func requests(_ path: String) throws -> [String] {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            StandardError.write("switchboard diff: cannot read the URL file \(path): \(error.localizedDescription)")
            throw ExitCode.badInput
        }
        return text.split(whereSeparator: \.isNewline).compactMap { line in
            let url = line.trimmingCharacters(in: .whitespaces)
            return url.isEmpty || url.hasPrefix("#") ? nil : url
        }
    }
}
