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

    /// `POST /admin/rules`: one rule or `{"rules": [...]}`, appended.
    func addRules(_ request: APIRequest) throws(APIError) -> HTTPResponse {
        try apply(.addRules, request, status: 201)
    }

    /// `PUT /admin/rules`: `{"rules": [...]}` replaces every admin rule.
    func replaceRules(_ request: APIRequest) throws(APIError) -> HTTPResponse {
        try apply(.replaceRules, request, status: 200)
    }

    /// `PUT /admin/rules/{id}`: one rule replaces the admin rule `id` where it stands. The
    /// body's `id` may be left out; when given, it must be `id`.
    func replaceRule(_ request: APIRequest) throws(APIError) -> HTTPResponse {
        try apply(.replaceRule, request, status: 200)
    }

    /// `PATCH /admin/rules/{id}`: `{"before": "<id>"}` or `{"after": "<id>"}` moves the admin
    /// rule `id` next to another admin rule.
    func moveRule(_ request: APIRequest) throws(APIError) -> HTTPResponse {
        try apply(.moveRule, request, status: 200)
    }

    /// `DELETE /admin/rules/{id}`.
    func deleteRule(_ request: APIRequest) throws(APIError) -> HTTPResponse {
        try apply(.deleteRule, request, status: 204)
    }

    /// `POST /admin/routes`: one route or `{"routes": [...]}`.
    func addRoutes(_ request: APIRequest) throws(APIError) -> HTTPResponse {
        try apply(.addRoutes, request, status: 201)
    }

    /// `PUT /admin/routes/{id}`: one route replaces the admin route `id`, in one swap (the route
    /// resolves before and after, never not at all). The body's `id` may be left out; when
    /// given, it must be `id`.
    func replaceRoute(_ request: APIRequest) throws(APIError) -> HTTPResponse {
        try apply(.replaceRoute, request, status: 200)
    }

    /// `DELETE /admin/routes/{id}`.
    func deleteRoute(_ request: APIRequest) throws(APIError) -> HTTPResponse {
        try apply(.deleteRoute, request, status: 204)
    }

    /// `POST /admin/rollback {"version": N}`: the admin rules and routes of version N become
    /// the current ones, as a new version.
    func rollback(_ request: APIRequest) throws(APIError) -> HTTPResponse {
        try apply(.rollback, request, status: 200)
    }

    /// The admin writes that are an ``AdminChange`` (every one but the reload).
    enum Write: Sendable, CaseIterable {
        case addRules, replaceRules, replaceRule, moveRule, deleteRule, addRoutes, replaceRoute, deleteRoute, rollback
    }

    /// The change `request` asks for as `write`: its body decoded and checked exactly as the
    /// write does it, for the write itself and for `POST /admin/preview`.
    ///
    /// - Throws: ``APIError`` (`400`) for a body the write refuses.
    static func change(_ write: Write, of request: APIRequest) throws(APIError) -> AdminChange {
        let id = request.pathID ?? ""
        switch write {
        case .addRules:
            let items = try request.decodeBody(ItemsBody<AdminRuleItem>.self, describedAs: ItemsBody<AdminRuleItem>.shape).items
            return .addRules(try adminRules(items))
        case .replaceRules:
            let body = try request.decodeBody(ItemsBody<AdminRuleItem>.self, describedAs: ItemsBody<AdminRuleItem>.shape)
            guard body.isBatch else {
                throw APIError.badRequest("invalid_body", "the body must be {\"rules\": [...]}")
            }
            return .replaceRules(try adminRules(body.items))
        case .replaceRule:
            let item = try request.decodeBody(AdminRuleItem.self, describedAs: "one rule", defaulting: "id", to: id)
            let rule = try adminRules([item])[0]
            try checkBodyID(rule.id, path: id)
            return .replaceRule(id: id, with: rule)
        case .moveRule:
            let body = try request.decodeBody(MoveRuleBody.self, describedAs: #"{"before": "<id>"} or {"after": "<id>"}"#)
            return .moveRule(id: id, to: body.position)
        case .deleteRule:
            return .deleteRule(id: id)
        case .addRoutes:
            let routes = try request.decodeBody(ItemsBody<AdminRoute>.self, describedAs: ItemsBody<AdminRoute>.shape).items
            return .addRoutes(routes)
        case .replaceRoute:
            let route = try request.decodeBody(AdminRoute.self, describedAs: "one route", defaulting: "id", to: id)
            try checkBodyID(route.definition.id, path: id)
            return .replaceRoute(id: id, with: route)
        case .deleteRoute:
            return .deleteRoute(id: id)
        case .rollback:
            let body = try request.decodeBody(RollbackBody.self, describedAs: #"{"version": N}"#)
            guard body.version >= 0 else {
                throw APIError.badRequest("invalid_body", "'version' must not be negative")
            }
            return .rollback(toVersion: body.version)
        }
    }

    /// `POST /admin/reload`: re-reads the config directory; `422` with every issue when it
    /// does not load (the running state is unchanged). It has no dry run of its own: one asked
    /// for is refused, since going on would reload for real.
    func reload(_ request: APIRequest) throws(APIError) -> HTTPResponse {
        guard try !Self.isDryRun(request) else {
            throw APIError.badRequest(
                "invalid_parameter",
                "a reload takes no dry_run; see what it would do with POST /admin/preview "
                    + #"{"method": "POST", "path": "/admin/reload"}, or check the config with switchboard check"#)
        }
        switch context.reloader.reload(.api) {
        case .success(let snapshot):
            return .json(
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

    /// Applies the change `request` asks for as `write`, with its `If-Match`, and answers with
    /// the new version; with `?dry_run=1` only says what it would do.
    private func apply(_ write: Write, _ request: APIRequest, status: Int) throws(APIError) -> HTTPResponse {
        let change = try Self.change(write, of: request)
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

    /// The rules of a write body. A rule listed with `"source": "admin"` is taken as it is;
    /// one with `"source": "config"` is refused: it lives in rewrites.yaml, and pushing it as
    /// an admin rule would run it twice.
    ///
    /// - Throws: ``APIError`` (`400`) for a config rule or an unknown source.
    private static func adminRules(_ items: [AdminRuleItem]) throws(APIError) -> [RewriteRule] {
        for (index, item) in items.enumerated() {
            switch item.source {
            case nil, "admin":
                continue
            case "config":
                throw APIError.badRequest(
                    "config_rule",
                    "rule #\(index) '\(item.rule.id)' has \"source\": \"config\": it comes from rewrites.yaml and cannot be "
                        + "pushed as an admin rule; send only the rules GET /admin/rules lists with \"source\": \"admin\"")
            case let other?:
                throw APIError.badRequest(
                    "invalid_body", "rule #\(index) '\(item.rule.id)': \"source\" is \"admin\" or left out, not \"\(other)\"")
            }
        }
        return items.map(\.rule)
    }

    /// An item sent to `/{id}` must carry that id (or none, and it is given that one).
    ///
    /// - Throws: ``APIError`` (`400 id_mismatch`).
    private static func checkBodyID(_ bodyID: String, path pathID: String) throws(APIError) {
        guard bodyID == pathID else {
            throw APIError.badRequest(
                "id_mismatch", "the body's id '\(bodyID)' is not the path's '\(pathID)'; leave it out or make them equal")
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
