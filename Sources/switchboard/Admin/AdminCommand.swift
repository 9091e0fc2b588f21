import ArgumentParser
import Foundation
import SwitchboardCore

/// `switchboard admin …`: a client of the admin API for scripts and admins (docs/command-line.md
/// "The admin client").
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin",
        abstract: "Read and change a running server's admin state.",
        discussion: """
            The server is --server or $SWITCHBOARD_SERVER; the token is read from --token-file or \
            $SWITCHBOARD_ADMIN_TOKEN, never from the command line. Exit status: 0 done, 1 apply --dry-run \
            found differences, 2 bad input (a file that does not parse, a change the server refuses as \
            invalid), 3 the server could not be reached or refused (token, 412 conflict, 5xx).
            """,
        subcommands: [
            AdminStatusCommand.self, AdminRulesCommand.self, AdminRoutesCommand.self, AdminHistoryCommand.self,
            AdminRollbackCommand.self, AdminApplyCommand.self,
        ]
    )

    /// Runs `body` with the client `options` name, and turns an ``AdminClientError`` into its
    /// message on standard error and its exit status.
    @discardableResult
    static func run<Result>(
        _ options: AdminOptions, _ body: (AdminClient) async throws(AdminClientError) -> Result
    ) async throws -> Result {
        do {
            return try await body(try options.client())
        } catch {
            StandardError.write("switchboard admin: \(error)")
            throw error.exitCode
        }
    }

    /// Writes `text` to `path`, or to standard output without one.
    static func write(_ text: String, to path: String?) throws(AdminClientError) {
        guard let path else {
            print(text, terminator: "")
            return
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw .usage("cannot write \(path): \(error.localizedDescription)")
        }
    }
}

/// `admin status`: `GET /admin/status` as the server answers it.
struct AdminStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Print the server's status: version, counts, the last reload (JSON).")

    @OptionGroup var options: AdminOptions

    func run() async throws {
        try await AdminCommand.run(options) { client throws(AdminClientError) in
            print(try await client.send("GET", "/admin/status").body.jsonText)
        }
    }
}

/// `admin rules get`.
struct AdminRulesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules", abstract: "Read the admin rules.", subcommands: [Get.self])

    /// `admin rules get [--output FILE]`: the admin rules as YAML in the `rewrites.yaml` format.
    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "get",
            abstract: "Print the admin rules as YAML in the rewrites.yaml format (what apply -f takes back).")

        @OptionGroup var options: AdminOptions

        @Option(help: "Write the YAML to this file instead of standard output.")
        var output: String?

        func run() async throws {
            try await AdminCommand.run(options) { client throws(AdminClientError) in
                let state = try await ServerAdminState.read(from: client)
                let header = "# The admin rules of \(client.server.absoluteString) at version \(state.version).\n"
                try AdminCommand.write(header + state.rulesDocument.yamlText, to: output)
            }
        }
    }
}

/// `admin routes get`.
struct AdminRoutesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routes", abstract: "Read the admin routes.", subcommands: [Get.self])

    /// `admin routes get [--output FILE]`: the admin routes as YAML, each with its module.
    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "get", abstract: "Print the admin routes as YAML (what apply -f takes back).")

        @OptionGroup var options: AdminOptions

        @Option(help: "Write the YAML to this file instead of standard output.")
        var output: String?

        func run() async throws {
            try await AdminCommand.run(options) { client throws(AdminClientError) in
                let state = try await ServerAdminState.read(from: client)
                let header = "# The admin routes of \(client.server.absoluteString) at version \(state.version).\n"
                try AdminCommand.write(header + state.routesDocument.yamlText, to: output)
            }
        }
    }
}

/// `admin history [--limit N]`: the last changes, newest first, one a line.
struct AdminHistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "List the last admin changes, newest first: version, time, token, action, ids.")

    @OptionGroup var options: AdminOptions

    @Option(help: "How many changes (default: all the server keeps).")
    var limit: Int?

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be 1 or more") }
    }

    func run() async throws {
        try await AdminCommand.run(options) { client throws(AdminClientError) in
            let answer = try await client.send("GET", "/admin/history" + (limit.map { "?limit=\($0)" } ?? ""))
            guard case .array(let entries)? = answer.body["history"] else {
                throw .unexpectedAnswer("no 'history' list")
            }
            for entry in entries { print(AdminHistoryCommand.line(entry)) }
        }
    }

    /// `VERSION  TIME  TOKEN  ACTION  ids` for one history entry.
    static func line(_ entry: JSONValue) -> String {
        func text(_ key: String) -> String {
            switch entry[key] {
            case .string(let value)?: value
            case .number(let value)?: String(Int(value))
            default: "-"
            }
        }
        var action = text("action")
        if case .number(let target)? = entry["rollbackTo"] { action += " to \(Int(target))" }
        let ids: [String] =
            if case .array(let values)? = entry["ids"] { values.compactMap(\.stringValue) } else { [] }
        return [text("version"), text("time"), text("token"), action, ids.joined(separator: ",")].joined(separator: "  ")
    }
}

/// `admin rollback VERSION`: `POST /admin/rollback`.
struct AdminRollbackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rollback", abstract: "Make the admin rules and routes of an earlier version current again, as a new version.")

    @OptionGroup var options: AdminOptions

    @Argument(help: "The version to restore (see admin history).")
    var version: Int

    func validate() throws {
        if version < 0 { throw ValidationError("VERSION must not be negative") }
    }

    func run() async throws {
        try await AdminCommand.run(options) { client throws(AdminClientError) in
            let answer = try await client.send("POST", "/admin/rollback", body: .object([("version", .number(Double(version)))]))
            print("rolled back to the rules and routes of version \(version): now version \(answer.version.map(String.init) ?? "?")")
        }
    }
}
