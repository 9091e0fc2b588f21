import ArgumentParser
import Foundation
import SwitchboardCore
import SwitchboardServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `switchboard applinks check --config DIR --url https://HOST [--aasa FILE] [--assetlinks FILE]`:
/// whether a host's published association files open the apps where the config says they
/// should (design.md §11).
struct AppLinksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "applinks",
        abstract: "Work with the app-link association files.",
        subcommands: [Check.self]
    )

    /// The drift check.
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Compare a host's published association files with what the config generates.",
            discussion:
                "Fetches URL/.well-known/apple-app-site-association and URL/.well-known/assetlinks.json (or reads --aasa and --assetlinks, e.g. Apple's CDN copy saved by hand) and evaluates them and the generated files with each platform's matching rules on the route table's sample paths. Exit status: 0 they agree, 1 they differ (each path listed), 2 bad input (config, flags, a file that is not the JSON its format asks for), 3 the host could not be reached or answered an error other than 404."
        )

        @OptionGroup var options: ConfigOptions

        @Option(help: "The host's base URL, e.g. https://shop.example.com (its host is the one the files are generated for).")
        var url: String

        @Option(help: "Read the apple-app-site-association from this file instead of fetching it.")
        var aasa: String?

        @Option(help: "Read the assetlinks.json from this file instead of fetching it.")
        var assetlinks: String?

        func run() async throws {
            guard let base = try? ParsedURL.parse(url), base.isHTTP, let host = base.host, !host.isEmpty else {
                StandardError.write("switchboard: --url must be an http(s) URL such as https://shop.example.com, not '\(url)'")
                throw ExitCode.badInput
            }
            let snapshot = try options.loadSnapshot()
            let root = url.hasSuffix("/") ? String(url.dropLast()) : url
            let published = (
                aasa: try await read(file: aasa, orFetch: root + "/.well-known/apple-app-site-association"),
                assetLinks: try await read(file: assetlinks, orFetch: root + "/.well-known/assetlinks.json")
            )
            let differences: [AppLinkDrift.Difference]
            do {
                differences = try AppLinkDrift.compare(
                    snapshot: snapshot, host: host, publishedAASA: published.aasa, publishedAssetLinks: published.assetLinks)
            } catch {
                StandardError.write("switchboard: \(error.message)")
                throw ExitCode.badInput
            }
            guard !differences.isEmpty else {
                print("the association files of \(host) agree with the config")
                return
            }
            for difference in differences { print(difference) }
            print("\(differences.count) difference\(differences.count == 1 ? "" : "s") for \(host)")
            throw ExitCode.findings
        }

        /// The file's bytes, or the fetched body (`nil` for a 404: not published).
        private func read(file: String?, orFetch address: String) async throws -> [UInt8]? {
            if let file {
                guard let data = FileManager.default.contents(atPath: file) else {
                    StandardError.write("switchboard: cannot read \(file)")
                    throw ExitCode.badInput
                }
                return Array(data)
            }
            return try await Self.fetch(address)
        }

        /// `GET address`, following no redirect (the platforms do not: a redirect is reported by
        /// its status): the body of a 200, `nil` for a 404, exit 3 otherwise.
        static func fetch(_ address: String) async throws -> [UInt8]? {
            guard let url = URL(string: address) else {
                StandardError.write("switchboard: '\(address)' is not a URL")
                throw ExitCode.badInput
            }
            let answer: (body: Data, response: HTTPURLResponse)
            do {
                answer = try await HTTPClient.send(URLRequest(url: url, timeoutInterval: HTTPClient.timeout))
            } catch {
                StandardError.write("switchboard: \(address) could not be reached: \(error.localizedDescription)")
                throw ExitCode.serverUnavailable
            }
            switch answer.response.statusCode {
            case 200: return Array(answer.body)
            case 404: return nil
            case let status:
                StandardError.write("switchboard: \(address) answered \(status)")
                throw ExitCode.serverUnavailable
            }
        }
    }
}
