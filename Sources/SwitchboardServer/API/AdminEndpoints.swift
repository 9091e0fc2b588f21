import Foundation
import SwitchboardCore
import SwitchboardHTTP
import SwitchboardStore

/// The admin API of design.md §5: rules, routes, history, rollback, reload and status. Every
/// change is persisted before it is acknowledged and bumps the version sent as `ETag`;
/// changes honour `If-Match`. The table checks the token before any of these runs.
struct AdminEndpoints: Sendable {
    let context: ServerContext

    // MARK: - Reading

    /// `GET /admin/rules`: admin rules, then config rules, each with its `source`.
    func listRules(_ request: APIRequest) -> HTTPResponse {
        let snapshot = context.snapshot
        let rules =
            snapshot.admin.rules.map { Self.json($0, source: "admin") }
            + snapshot.config.rewriteRules.map { Self.json($0, source: "config") }
        return Self.versioned(
            snapshot.admin.version, .object([("version", .number(Double(snapshot.admin.version))), ("rules", .array(rules))]))
    }

    /// `GET /admin/routes`: the routes pushed over the API.
    func listRoutes(_ request: APIRequest) -> HTTPResponse {
        let snapshot = context.snapshot
        return Self.versioned(
            snapshot.admin.version,
            .object([
                ("version", .number(Double(snapshot.admin.version))), ("routes", .array(snapshot.admin.routes.map(Self.json))),
            ]))
    }

    /// `GET /admin/status`: versions, counts, and how the last reload went.
    func status(_ request: APIRequest) -> HTTPResponse {
        let snapshot = context.snapshot
        let reload = context.reloader.status
        let formatter = ISO8601DateFormatter()
        let body: JSONValue = .object([
            ("version", .number(Double(snapshot.admin.version))),
            ("routes", .number(Double(snapshot.resolver.router.routes.count))),
            ("rules", .number(Double(snapshot.resolver.rewriter.rules.count))),
            ("adminRules", .number(Double(snapshot.admin.rules.count))),
            ("adminRoutes", .number(Double(snapshot.admin.routes.count))),
            ("configDirectory", .string(context.reloader.configDirectory)),
            ("startedAt", .string(formatter.string(from: context.startedAt))),
            ("snapshotBuiltAt", .string(formatter.string(from: snapshot.builtAt))),
            (
                "lastReload",
                .object([
                    ("time", .string(formatter.string(from: reload.time))),
                    ("trigger", .string(reload.trigger.description)),
                    ("ok", .bool(reload.succeeded)),
                    ("errors", .array(reload.issues.map { .string($0.description) })),
                    ("restartRequired", .array(reload.restartRequired.map { .string($0) })),
                ])
            ),
        ])
        return Self.versioned(snapshot.admin.version, body)
    }

    /// `GET /admin/history[?limit=N]`: the last changes, newest first, without their states.
    func history(_ request: APIRequest) throws(APIError) -> HTTPResponse {
        let admin = context.snapshot.admin
        var limit = admin.history.count
        if let text = try request.queryValue("limit") {
            guard let value = Int(text), value > 0 else {
                throw APIError.badRequest("invalid_parameter", "limit must be a positive integer, not '\(text)'")
            }
            limit = value
        }
        let entries = admin.history.suffix(limit).reversed().map { entry -> JSONValue in
            var members: [(key: String, value: JSONValue)] = [
                ("version", .number(Double(entry.version))), ("time", .string(entry.time)), ("token", .string(entry.token)),
                ("action", .string(entry.action)), ("ids", .array(entry.ids.map(JSONValue.string))),
            ]
            if let target = entry.rollbackTo { members.append(("rollbackTo", .number(Double(target)))) }
            members.append(("rules", .number(Double(entry.ruleCount))))
            members.append(("routes", .number(Double(entry.routeCount))))
            return .object(members)
        }
        return Self.versioned(admin.version, .object([("version", .number(Double(admin.version))), ("history", .array(entries))]))
    }

    // MARK: - Changing

    /// Answers `request` as `write` asks: the change it names, applied or (`?dry_run=1`)
    /// only tried, or the reload.
    func perform(_ write: AdminWrite, _ request: APIRequest) throws(APIError) -> HTTPResponse {
        guard let change = try write.change(of: request) else { return try reload(request, status: write.status) }
        return try apply(change, request, status: write.status)
    }

    /// `POST /admin/reload`: re-reads the config directory; `422` with every issue when it
    /// does not load (the running state is unchanged). It has no dry run of its own: one asked
    /// for is refused, since going on would reload for real.
    private func reload(_ request: APIRequest, status: Int) throws(APIError) -> HTTPResponse {
        guard try !Self.isDryRun(request) else {
            throw APIError.badRequest(
                "invalid_parameter",
                "a reload takes no dry_run; see what it would do with POST /admin/preview "
                    + #"{"method": "POST", "path": "/admin/reload"}, or check the config with switchboard check"#)
        }
        switch context.reloader.reload(.api) {
        case .success(let snapshot):
            return .json(
                status: status,
                JSONValue.object([
                    ("routes", .number(Double(snapshot.resolver.router.routes.count))),
                    ("rules", .number(Double(snapshot.resolver.rewriter.rules.count))),
                ]).jsonBytes)
        case .failure(let issues):
            throw APIError(
                status: 422, code: "invalid_config",
                message: "the config has \(issues.issues.count) error(s); the running state is unchanged", issues: issues.issues)
        }
    }

    /// Applies `change`, which `request` asks for, with its `If-Match`, and answers with the
    /// new version; with `?dry_run=1` only says what it would do.
    private func apply(_ change: AdminChange, _ request: APIRequest, status: Int) throws(APIError) -> HTTPResponse {
        let expected = try request.expectedVersion()
        if try Self.isDryRun(request) {
            let preview: AdminChangePreview
            do {
                preview = try context.adminWriter.preview(change, expectedVersion: expected, actor: request.actor ?? "admin")
            } catch {
                throw APIError(error)
            }
            let body: JSONValue = .object([
                ("dryRun", .bool(true)), ("version", .number(Double(preview.version))),
                ("wouldBeVersion", .number(Double(preview.version + 1))),
                ("added", .array(preview.added.map(JSONValue.string))),
                ("changed", .array(preview.changed.map(JSONValue.string))),
                ("removed", .array(preview.removed.map(JSONValue.string))),
            ])
            return Self.versioned(preview.version, body)
        }
        let snapshot: Snapshot
        do {
            snapshot = try context.adminWriter.apply(change, expectedVersion: expected, actor: request.actor ?? "admin")
        } catch {
            throw APIError(error)
        }
        let version = snapshot.admin.version
        if status == 204 { return HTTPResponse(status: 204, headers: [("ETag", Self.etag(version))]) }
        return .json(status: status, #"{"version":\#(version)}"#, headers: [("ETag", Self.etag(version))])
    }

    // MARK: - Helpers

    /// Whether `?dry_run=` asks for a dry run: `1` or `true` does, `0`, `false` or no
    /// parameter does not.
    ///
    /// - Throws: ``APIError`` (`400 invalid_parameter`) for any other value, rather than
    ///   guessing and making a change the caller meant to try.
    private static func isDryRun(_ request: APIRequest) throws(APIError) -> Bool {
        switch try request.queryValue("dry_run") {
        case nil, "0", "false": return false
        case "1", "true": return true
        case let other?:
            throw APIError.badRequest("invalid_parameter", "dry_run must be 1, true, 0 or false, not '\(other)'")
        }
    }

    static func etag(_ version: Int) -> String { "\"\(version)\"" }

    static func versioned(_ version: Int, _ body: JSONValue) -> HTTPResponse {
        .json(body.jsonBytes, headers: [("ETag", etag(version))])
    }

    /// A rule as listed: the stored shape, with its `source`.
    static func json(_ rule: RewriteRule, source: String) -> JSONValue {
        guard case .object(var members) = rule.fileJSON else { return rule.fileJSON }
        members.append(("source", .string(source)))
        return .object(members)
    }

    /// A route as listed: the stored shape, with `params` always present.
    static func json(_ route: AdminRoute) -> JSONValue {
        guard case .object(var members) = route.fileJSON else { return route.fileJSON }
        if !members.contains(where: { $0.key == "params" }), let target = members.firstIndex(where: { $0.key == "target" }) {
            members.insert(("params", .object([])), at: target + 1)
        }
        return .object(members)
    }
}
