import ArgumentParser
import Foundation

/// Where the admin API is and the token to use: `--server` or `SWITCHBOARD_SERVER`, and
/// `--token-file` or `SWITCHBOARD_ADMIN_TOKEN`. A token is never taken from the command line,
/// where other users of the machine and shell histories would see it.
struct AdminOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The server's base URL, e.g. http://127.0.0.1:8080 (default: $SWITCHBOARD_SERVER).", valueName: "url"))
    var server: String?

    @Option(
        name: .customLong("token-file"),
        help: ArgumentHelp("A file holding the admin token (default: $SWITCHBOARD_ADMIN_TOKEN).", valueName: "path"))
    var tokenFile: String?

    /// The client these options name.
    ///
    /// - Throws: ``AdminClientError`` (bad input) when the server or the token is missing or unusable.
    func client() throws(AdminClientError) -> AdminClient {
        let environment = ProcessInfo.processInfo.environment
        guard let address = server ?? environment["SWITCHBOARD_SERVER"], !address.isEmpty else {
            throw .usage("no server: give --server URL or set SWITCHBOARD_SERVER")
        }
        guard let base = URL(string: address.hasSuffix("/") ? String(address.dropLast()) : address),
            ["http", "https"].contains(base.scheme?.lowercased() ?? ""), base.host != nil
        else {
            throw .usage("the server '\(address)' is not an http:// or https:// URL")
        }
        let token: String
        if let tokenFile {
            do {
                token = try String(contentsOfFile: tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            } catch {
                throw .usage("cannot read the token file \(tokenFile): \(error.localizedDescription)")
            }
            guard !token.isEmpty else { throw .usage("the token file \(tokenFile) is empty") }
        } else if let fromEnvironment = environment["SWITCHBOARD_ADMIN_TOKEN"], !fromEnvironment.isEmpty {
            token = fromEnvironment
        } else {
            throw .usage("no admin token: give --token-file PATH or set SWITCHBOARD_ADMIN_TOKEN")
        }
        return AdminClient(server: base, token: token)
    }
}
