import Foundation
import SwitchboardCore

/// The admin API of DESIGN §5: rules, routes, reload and status. Every change is persisted
/// before it is acknowledged and bumps the version sent as `ETag`; `PUT`/`POST`/`DELETE`
/// honour `If-Match`.
struct AdminEndpoints {
    let service: SwitchboardService

    func handle(_ request: HTTPRequest) -> HTTPResponse {
        let actor: String
        switch AdminAuthorization(tokens: service.adminTokens).authorize(request) {
        case .success(let name): actor = name
        case .failure(let refusal): return refusal.response
        }
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let resource = parts.count > 1 ? parts[1] : ""
        let id: String? = parts.count == 3 ? (PercentEncoding.decode(parts[2], plusAsSpace: false) ?? parts[2]) : nil
        guard parts.count <= 3 else { return notFound(request.path) }
        switch (resource, id, request.method) {
        case ("rules", nil, "GET"): return listRules()
        case ("rules", nil, "POST"):
            return change(request, status: 201, actor: actor, action: "rules.add") { (admin, snapshot) throws(AdminChangeError) in
                try appendRules(request.body, to: &admin, snapshot)
            }
        case ("rules", nil, "PUT"):
            return change(request, status: 200, actor: actor, action: "rules.replace") { (admin, snapshot) throws(AdminChangeError) in
                try replaceRules(request.body, in: &admin, snapshot)
            }
        case ("rules", let id?, "DELETE"):
            return change(request, status: 204, actor: actor, action: "rules.delete") { (admin, snapshot) throws(AdminChangeError) in
                try deleteRule(id, from: &admin, snapshot)
            }
        case ("routes", nil, "GET"): return listRoutes()
        case ("routes", nil, "POST"):
            return change(request, status: 201, actor: actor, action: "routes.add") { (admin, snapshot) throws(AdminChangeError) in
                try addRoutes(request.body, to: &admin, snapshot)
            }
        case ("routes", let id?, "DELETE"):
            return change(request, status: 204, actor: actor, action: "routes.delete") { (admin, snapshot) throws(AdminChangeError) in
                try deleteRoute(id, from: &admin, snapshot)
            }
        case ("history", nil, "GET"): return history(request)
        case ("rollback", nil, "POST"): return rollback(request, actor: actor)
        case ("reload", nil, "POST"): return reload()
        case ("status", nil, "GET"): return status()
        default:
            guard let allowed = Self.allowedMethods(resource: resource, hasID: id != nil) else {
                return notFound(request.path)
            }
            let list = allowed.joined(separator: ", ")
            return .error(
                status: 405, code: "method_not_allowed", message: "\(request.method) is not allowed on \(request.path); use \(list)",
                headers: [("Allow", list)])
        }
    }

    /// The methods an admin resource answers (for `405` and its `Allow` header, RFC 9110
    /// §15.5.6), or `nil` when there is no such resource.
    private static func allowedMethods(resource: String, hasID: Bool) -> [String]? {
        switch (resource, hasID) {
        case ("rules", false): ["GET", "POST", "PUT"]
        case ("routes", false): ["GET", "POST"]
        case ("rules", true), ("routes", true): ["DELETE"]
        case ("reload", false), ("rollback", false): ["POST"]
        case ("history", false): ["GET"]
        case ("status", false): ["GET"]
        default: nil
        }
    }

    private func notFound(_ path: String) -> HTTPResponse {
        .error(status: 404, code: "not_found", message: "no admin endpoint at \(path); see /openapi.yaml")
    }

    // MARK: - Reading

    private func listRules() -> HTTPResponse {
        let snapshot = service.snapshot
        let rules =
            snapshot.admin.rules.map { Self.json($0, source: "admin") }
            + snapshot.config.rewriteRules.map { Self.json($0, source: "config") }
        return versioned(snapshot.admin.version, ["version": .number(Double(snapshot.admin.version)), "rules": .array(rules)])
    }

    private func listRoutes() -> HTTPResponse {
        let snapshot = service.snapshot
        return versioned(
            snapshot.admin.version,
            ["version": .number(Double(snapshot.admin.version)), "routes": .array(snapshot.admin.routes.map(Self.json))])
    }

    private func status() -> HTTPResponse {
        let snapshot = service.snapshot
        let reload = service.reloadStatus
        let formatter = ISO8601DateFormatter()
        let body: JSONValue = .object([
            ("version", .number(Double(snapshot.admin.version))),
            ("routes", .number(Double(snapshot.resolver.router.routes.count))),
            ("rules", .number(Double(snapshot.resolver.rewriter.rules.count))),
            ("adminRules", .number(Double(snapshot.admin.rules.count))),
            ("adminRoutes", .number(Double(snapshot.admin.routes.count))),
            ("configDirectory", .string(service.configDirectory)),
            ("startedAt", .string(formatter.string(from: service.startedAt))),
            ("snapshotBuiltAt", .string(formatter.string(from: snapshot.builtAt))),
            (
                "lastReload",
                .object([
                    ("time", .string(formatter.string(from: reload.time))),
                    ("trigger", .string(reload.trigger)),
                    ("ok", .bool(reload.succeeded)),
                    ("errors", .array(reload.issues.map { .string($0.description) })),
                ])
            ),
        ])
        return versioned(snapshot.admin.version, body)
    }

    private func reload() -> HTTPResponse {
        switch service.reload(trigger: "api") {
        case .success(let snapshot):
            return .json(
                JSONValue.object([
                    ("routes", .number(Double(snapshot.resolver.router.routes.count))),
                    ("rules", .number(Double(snapshot.resolver.rewriter.rules.count))),
                ]).jsonText)
        case .failure(let issues):
            let body: JSONValue = .object([
                (
                    "error",
                    .object([
                        ("code", .string("invalid_config")),
                        ("message", .string("the config has \(issues.issues.count) error(s); the running state is unchanged")),
                    ])
                ),
                ("errors", .array(issues.issues.map(Self.json))),
            ])
            return .json(status: 422, body.jsonText)
        }
    }

    /// `GET /admin/history[?limit=N]`: the last changes, newest first, without their states.
    private func history(_ request: HTTPRequest) -> HTTPResponse {
        let admin = service.snapshot.admin
        var limit = admin.history.count
        let query = (try? ParsedURL.queryItems(ofRawQuery: request.query ?? "")) ?? []
        if let text = query.first(where: { $0.name == "limit" })?.value {
            guard let value = Int(text), value > 0 else {
                return .error(status: 400, code: "invalid_parameter", message: "limit must be a positive integer, not '\(text)'")
            }
            limit = value
        }
        let entries = admin.history.suffix(limit).reversed().map { entry -> JSONValue in
            var members: [(key: String, value: JSONValue)] = [
                ("version", .number(Double(entry.version))), ("time", .string(entry.time)), ("token", .string(entry.token)),
                ("action", .string(entry.action)), ("ids", .array(entry.ids.map(JSONValue.string))),
            ]
            if let target = entry.rollbackTo { members.append(("rollbackTo", .number(Double(target)))) }
            members.append(("rules", .number(Double(entry.rules.count))))
            members.append(("routes", .number(Double(entry.routes.count))))
            return .object(members)
        }
        return versioned(admin.version, .object([("version", .number(Double(admin.version))), ("history", .array(entries))]))
    }

    /// `POST /admin/rollback {"version": N}`: the admin rules and routes of version N become
    /// the current ones, as a new version.
    private func rollback(_ request: HTTPRequest, actor: String) -> HTTPResponse {
        let target: Int
        do {
            target = try Self.decodeRollbackVersion(request.body)
        } catch {
            return .error(status: error.status, code: error.code, message: error.message)
        }
        return change(request, status: 200, actor: actor, action: "rollback", rollbackTo: target) {
            (admin, _) throws(AdminChangeError) in
            guard let content = admin.content(atVersion: target) else {
                let oldest = admin.history.first.map { "; the oldest kept is \($0.version)" } ?? ""
                throw AdminChangeError(
                    status: 404, code: "not_found", message: "version \(target) is not in the history\(oldest)")
            }
            admin.rules = content.rules
            admin.routes = content.routes
        }
    }

    /// The body of `POST /admin/rollback`.
    private struct RollbackRequest: Decodable {
        let version: Int

        enum CodingKeys: String, CodingKey, CaseIterable { case version }

        init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(CodingKeys.self)
            version = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .version)
        }
    }

    private static func decodeRollbackVersion(_ body: [UInt8]) throws(AdminChangeError) -> Int {
        guard !body.isEmpty else {
            throw AdminChangeError(status: 400, code: "invalid_body", message: "the request body is empty; send {\"version\": N}")
        }
        let request: RollbackRequest
        do {
            request = try JSONDecoder().decode(RollbackRequest.self, from: Data(body))
        } catch {
            throw AdminChangeError(status: 400, code: "invalid_body", message: DecodingErrorDescription.describe(error))
        }
        guard request.version >= 0 else {
            throw AdminChangeError(status: 400, code: "invalid_body", message: "'version' must not be negative")
        }
        return request.version
    }

    // MARK: - Changing

    /// Runs a change with the `If-Match` check and answers with the new version.
    private func change(
        _ request: HTTPRequest, status: Int, actor: String, action: String, rollbackTo: Int? = nil,
        _ edit: (inout AdminState, Snapshot) throws(AdminChangeError) -> Void
    ) -> HTTPResponse {
        let expected: Int?
        switch Self.expectedVersion(request.header("If-Match")) {
        case .version(let version): expected = version
        case .refused(let refusal): return refusal
        }
        do {
            let snapshot = try service.changeAdminState(
                expectedVersion: expected, actor: actor, action: action, rollbackTo: rollbackTo, edit)
            let version = snapshot.admin.version
            if status == 204 { return HTTPResponse(status: 204, headers: [("ETag", Self.etag(version))]) }
            return .json(status: status, #"{"version":\#(version)}"#, headers: [("ETag", Self.etag(version))])
        } catch {
            var members: [(key: String, value: JSONValue)] = [
                ("error", .object([("code", .string(error.code)), ("message", .string(error.message))]))
            ]
            if !error.issues.isEmpty { members.append(("errors", .array(error.issues.map(Self.json)))) }
            return .json(status: error.status, JSONValue.object(members).jsonText)
        }
    }

    private func appendRules(_ body: [UInt8], to admin: inout AdminState, _ snapshot: Snapshot) throws(AdminChangeError) {
        let rules = try Self.decodeBatch(body, key: "rules", as: RewriteRule.self)
        try Self.validate(rules)
        try Self.checkIDsAreFree(rules, adminRules: admin.rules, snapshot)
        admin.rules += rules
    }

    private func replaceRules(_ body: [UInt8], in admin: inout AdminState, _ snapshot: Snapshot) throws(AdminChangeError) {
        let rules = try Self.decodeBatch(body, key: "rules", as: RewriteRule.self, requireBatch: true)
        try Self.validate(rules)
        try Self.checkIDsAreFree(rules, adminRules: [], snapshot)
        admin.rules = rules
    }

    /// A new rule's id must not be taken by a config rule or a remaining admin rule (`409`
    /// naming the batch index and who has the id, rather than the combined list's indexes).
    private static func checkIDsAreFree(
        _ rules: [RewriteRule], adminRules: [RewriteRule], _ snapshot: Snapshot
    ) throws(AdminChangeError) {
        for (index, rule) in rules.enumerated() {
            let owner: String
            if adminRules.contains(where: { $0.id == rule.id }) {
                owner = "an admin rule (DELETE /admin/rules/\(rule.id) first, or PUT the whole list)"
            } else if snapshot.config.rewriteRules.contains(where: { $0.id == rule.id }) {
                owner = "a rule of rewrites.yaml"
            } else {
                continue
            }
            let message = "rule #\(index): id '\(rule.id)' is already used by \(owner)"
            throw AdminChangeError(
                status: 409, code: "conflict", message: message,
                issues: [ConfigIssue(file: nil, item: rule.id, message: message, code: "duplicate_id")])
        }
    }

    private func deleteRule(_ id: String, from admin: inout AdminState, _ snapshot: Snapshot) throws(AdminChangeError) {
        if let index = admin.rules.firstIndex(where: { $0.id == id }) {
            admin.rules.remove(at: index)
        } else if snapshot.config.rewriteRules.contains(where: { $0.id == id }) {
            throw AdminChangeError(
                status: 409, code: "config_rule",
                message: "rule '\(id)' comes from rewrites.yaml; change the config file to remove it")
        } else {
            throw AdminChangeError(status: 404, code: "not_found", message: "no admin rule with id '\(id)'")
        }
    }

    private func addRoutes(_ body: [UInt8], to admin: inout AdminState, _ snapshot: Snapshot) throws(AdminChangeError) {
        let routes = try Self.decodeBatch(body, key: "routes", as: AdminRoute.self)
        for route in routes where snapshot.isConfigRoute(id: route.definition.id) {
            throw AdminChangeError(
                status: 409, code: "conflict",
                message: "route '\(route.definition.id)' exists in the config; admin routes cannot replace config routes")
        }
        admin.routes += routes
    }

    private func deleteRoute(_ id: String, from admin: inout AdminState, _ snapshot: Snapshot) throws(AdminChangeError) {
        if let index = admin.routes.firstIndex(where: { $0.definition.id == id }) {
            admin.routes.remove(at: index)
        } else if snapshot.isConfigRoute(id: id) {
            throw AdminChangeError(
                status: 409, code: "config_route",
                message: "route '\(id)' comes from a route file; change the config to remove it")
        } else {
            throw AdminChangeError(status: 404, code: "not_found", message: "no admin route with id '\(id)'")
        }
    }

    // MARK: - Helpers

    /// Validates a batch of rules on its own, so errors name the index within the batch.
    private static func validate(_ rules: [RewriteRule]) throws(AdminChangeError) {
        do {
            _ = try RewriteEngine(rules: rules)
        } catch {
            let duplicate = error.issues.allSatisfy { $0.code == .duplicateID }
            throw AdminChangeError(
                status: duplicate ? 409 : 400, code: duplicate ? "conflict" : "invalid_rule",
                message: error.issues.map(\.description).joined(separator: "; "),
                issues: error.issues.map { ConfigIssue(file: nil, item: $0.ruleID, message: $0.description, code: $0.code.description) })
        }
    }

    /// Decodes one item or `{"<key>": [...]}`.
    private static func decodeBatch<Item: Decodable>(
        _ body: [UInt8], key: String, as type: Item.Type, requireBatch: Bool = false
    ) throws(AdminChangeError) -> [Item] {
        guard !body.isEmpty else {
            throw AdminChangeError(status: 400, code: "invalid_body", message: "the request body is empty; send JSON")
        }
        let data = Data(body)
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw AdminChangeError(status: 400, code: "invalid_json", message: "the body is not valid JSON: \(error.localizedDescription)")
        }
        guard let dictionary = object as? [String: Any] else {
            throw AdminChangeError(status: 400, code: "invalid_body", message: "the body must be a JSON object")
        }
        let isBatch = dictionary[key] != nil
        if requireBatch && !isBatch {
            throw AdminChangeError(status: 400, code: "invalid_body", message: "the body must be {\"\(key)\": [...]}")
        }
        do {
            if isBatch {
                guard dictionary.count == 1 else {
                    let extra = dictionary.keys.filter { $0 != key }.sorted().joined(separator: ", ")
                    throw AdminChangeError(status: 400, code: "invalid_body", message: "unknown key(s) next to '\(key)': \(extra)")
                }
                return try JSONDecoder().decode([String: [Item]].self, from: data)[key] ?? []
            }
            return [try JSONDecoder().decode(Item.self, from: data)]
        } catch let error as AdminChangeError {
            throw error
        } catch {
            throw AdminChangeError(status: 400, code: "invalid_body", message: DecodingErrorDescription.describe(error))
        }
    }

    private enum ExpectedVersion {
        case version(Int?)
        case refused(HTTPResponse)
    }

    /// The version `If-Match` names: `"5"`, `W/"5"` or `5`; `*` or no header means any.
    private static func expectedVersion(_ header: String?) -> ExpectedVersion {
        guard var value = header?.trimmingCharacters(in: .whitespaces), !value.isEmpty, value != "*" else {
            return .version(nil)
        }
        if value.hasPrefix("W/") { value.removeFirst(2) }
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
        guard let version = Int(value) else {
            return .refused(.error(status: 412, code: "version_mismatch", message: "If-Match '\(header ?? "")' is not a version ETag"))
        }
        return .version(version)
    }

    static func etag(_ version: Int) -> String { "\"\(version)\"" }

    private func versioned(_ version: Int, _ body: [String: JSONValue]) -> HTTPResponse {
        let ordered = ["version", "rules", "routes"].compactMap { key in body[key].map { (key: key, value: $0) } }
        return versioned(version, .object(ordered))
    }

    private func versioned(_ version: Int, _ body: JSONValue) -> HTTPResponse {
        .json(body.jsonText, headers: [("ETag", Self.etag(version))])
    }

    private static func json(_ rule: RewriteRule, source: String) -> JSONValue {
        guard case .object(var members) = rule.fileJSON else { return rule.fileJSON }
        members.append(("source", .string(source)))
        return .object(members)
    }

    /// A route as listed: the stored shape, with `params` always present.
    private static func json(_ route: AdminRoute) -> JSONValue {
        guard case .object(var members) = route.fileJSON else { return route.fileJSON }
        if !members.contains(where: { $0.key == "params" }), let target = members.firstIndex(where: { $0.key == "target" }) {
            members.insert(("params", .object([])), at: target + 1)
        }
        return .object(members)
    }

    private static func json(_ issue: ConfigIssue) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let file = issue.file { members.append(("file", .string(file))) }
        if let item = issue.item { members.append(("item", .string(item))) }
        members.append(("message", .string(issue.message)))
        return .object(members)
    }
}
