import ArgumentParser
import SwitchboardCore
import SwitchboardServer
import SwitchboardStore

/// `admin apply -f FILE [--dry-run]`: makes the server's admin rules and/or routes equal to a
/// file, in one change (`PUT /admin/state`) with `If-Match` on the version it read.
struct AdminApplyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Make the server's admin rules and routes equal to a YAML file; --dry-run previews the impact.",
        discussion: """
            FILE has 'rules' (the rewrites.yaml format) and/or 'routes' (admin routes, each with its module); \
            a key left out keeps that part of the server as it is. The changes are printed, then sent as one \
            change with If-Match on the version read: if anyone changed the admin state in between, the \
            server refuses (412), the winning version is reported and nothing is retried. --dry-run asks \
            the server for the impact preview over its traffic sample and changes nothing. Exit status: 0 \
            applied or already equal, 1 --dry-run found differences, 2 the file or a rule is invalid, 3 the \
            server could not be reached or refused (token, conflict, 5xx).
            """
    )

    @OptionGroup var options: AdminOptions

    @Option(name: [.customShort("f"), .customLong("file")], help: "The YAML file to apply.")
    var file: String

    @Flag(name: .customLong("dry-run"), help: "Print the server's impact preview; change nothing.")
    var dryRun = false

    @Option(help: "Examples shown per group of the preview (1 to 50).")
    var examples: Int = 5

    func validate() throws {
        guard (1...50).contains(examples) else { throw ValidationError("--examples must be from 1 to 50") }
    }

    func run() async throws {
        let differs = try await AdminCommand.run(options) { client throws(AdminClientError) -> Bool in
            let wanted = try AdminStateFile(path: file)
            let current = try await ServerAdminState.read(from: client)
            let rules = wanted.rules ?? current.rules
            let routes = wanted.routes ?? current.routes
            let plan = AdminApplyPlan(from: current, rules: rules, routes: routes)
            guard !plan.isEmpty else {
                print("up to date: the server's admin state at version \(current.version) equals \(file)")
                return false
            }
            print(plan.text, terminator: "")
            let body = JSONValue.object([
                ("rules", .array(rules.map(\.fileJSON))), ("routes", .array(routes.map(\.fileJSON))),
            ])
            do throws(AdminClientError) {
                if dryRun {
                    let preview = try await client.send(
                        "POST", "/admin/preview?examples=\(examples)",
                        body: .object([("method", .string("PUT")), ("path", .string("/admin/state")), ("body", body)]),
                        ifMatch: current.version)
                    print(AdminPreviewText.text(preview.body), terminator: "")
                    print("dry run: nothing changed (version \(current.version))")
                    return true
                }
                let answer = try await client.send("PUT", "/admin/state", body: body, ifMatch: current.version)
                print("applied: version \(current.version) -> \(answer.version.map(String.init) ?? "?")")
                return true
            } catch .refused(let error) where error.status == 412 {
                throw .refused(await Self.conflict(error, read: current.version, client: client))
            } catch .refused(let error) where error.status < 500 {
                throw .refused(Self.located(error, in: wanted))
            }
        }
        if differs && dryRun { throw ExitCode.findings }
    }

    /// A `412` reported with the version that won: who changed what since `read`.
    private static func conflict(_ error: APIError, read: Int, client: AdminClient) async -> APIError {
        var message = "the admin state changed after this apply read version \(read); nothing was changed and nothing is retried"
        if let history = try? await client.send("GET", "/admin/history?limit=1"), case .array(let entries)? = history.body["history"],
            let newest = entries.first
        {
            message += ". The version that won: \(AdminHistoryCommand.line(newest))"
        }
        message += ". Look at it (admin history, admin rules get), then run apply again"
        return APIError(status: 412, code: error.code, message: message)
    }

    /// The server's refusal with each issue placed at its rule's or route's line in the file.
    private static func located(_ error: APIError, in file: AdminStateFile) -> APIError {
        var error = error
        error.issues = error.issues.map { issue in
            var issue = issue
            issue.file = file.place(of: issue.item)
            return issue
        }
        if error.issues.isEmpty {
            // A refusal of one item names it in its message as 'id'.
            let named = (file.rules?.map(\.id) ?? []) + (file.routes?.map(\.definition.id) ?? [])
            if let id = named.first(where: { error.message.contains("'\($0)'") }) {
                error.message = "\(file.place(of: id)): \(error.message)"
            }
        }
        return error
    }
}
