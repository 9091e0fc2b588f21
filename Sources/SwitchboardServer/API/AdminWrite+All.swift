import SwitchboardCore
import SwitchboardStore

extension AdminWrite {
    /// Every admin write, in the order error messages list them (``listed``).
    ///
    /// The `action` of each is what the history records for it; state files and PostgreSQL
    /// keep these names, so they are never renamed.
    static let all: [AdminWrite] = [
        // One rule or `{"rules": [...]}`, appended.
        AdminWrite(
            "POST", "/admin/rules", status: 201,
            .change(action: "rules.add") { request throws(APIError) in
                .addRules(
                    try adminRules(try request.decodeBody(ItemsBody<AdminRuleItem>.self, describedAs: ItemsBody<AdminRuleItem>.shape).items)
                )
            }),
        // `{"rules": [...]}` replaces every admin rule.
        AdminWrite(
            "PUT", "/admin/rules", status: 200,
            .change(action: "rules.replace") { request throws(APIError) in
                let body = try request.decodeBody(ItemsBody<AdminRuleItem>.self, describedAs: ItemsBody<AdminRuleItem>.shape)
                guard body.isBatch else {
                    throw APIError.badRequest("invalid_body", "the body must be {\"rules\": [...]}")
                }
                return .replaceRules(try adminRules(body.items))
            }),
        // One rule replaces the admin rule `id` where it stands. The body's `id` may be left
        // out; when given, it must be `id`.
        AdminWrite(
            "PUT", "/admin/rules/{id}", status: 200,
            .change(action: "rules.update") { request throws(APIError) in
                let id = request.pathID ?? ""
                let item = try request.decodeBody(AdminRuleItem.self, describedAs: "one rule", defaulting: "id", to: id)
                let rule = try adminRules([item])[0]
                try checkBodyID(rule.id, path: id)
                return .replaceRule(id: id, with: rule)
            }),
        // `{"before": "<id>"}` or `{"after": "<id>"}` moves the admin rule `id` next to
        // another admin rule.
        AdminWrite(
            "PATCH", "/admin/rules/{id}", status: 200,
            .change(action: "rules.move") { request throws(APIError) in
                let body = try request.decodeBody(MoveRuleBody.self, describedAs: #"{"before": "<id>"} or {"after": "<id>"}"#)
                return .moveRule(id: request.pathID ?? "", to: body.position)
            }),
        AdminWrite(
            "DELETE", "/admin/rules/{id}", status: 204, takesBody: false,
            .change(action: "rules.delete") { request in .deleteRule(id: request.pathID ?? "") }),
        // One route or `{"routes": [...]}`.
        AdminWrite(
            "POST", "/admin/routes", status: 201,
            .change(action: "routes.add") { request throws(APIError) in
                .addRoutes(try request.decodeBody(ItemsBody<AdminRoute>.self, describedAs: ItemsBody<AdminRoute>.shape).items)
            }),
        // One route replaces the admin route `id`, in one swap (the route resolves before and
        // after, never not at all). The body's `id` may be left out; when given, it must be `id`.
        AdminWrite(
            "PUT", "/admin/routes/{id}", status: 200,
            .change(action: "routes.update") { request throws(APIError) in
                let id = request.pathID ?? ""
                let route = try request.decodeBody(AdminRoute.self, describedAs: "one route", defaulting: "id", to: id)
                try checkBodyID(route.definition.id, path: id)
                return .replaceRoute(id: id, with: route)
            }),
        AdminWrite(
            "DELETE", "/admin/routes/{id}", status: 204, takesBody: false,
            .change(action: "routes.delete") { request in .deleteRoute(id: request.pathID ?? "") }),
        // `{"version": N}`: the admin rules and routes of version N become the current ones,
        // as a new version.
        AdminWrite(
            "POST", "/admin/rollback", status: 200,
            .change(action: "rollback") { request throws(APIError) in
                let body = try request.decodeBody(RollbackBody.self, describedAs: #"{"version": N}"#)
                guard body.version >= 0 else {
                    throw APIError.badRequest("invalid_body", "'version' must not be negative")
                }
                return .rollback(toVersion: body.version)
            }),
        // `{"rules": [...], "routes": [...]}` replaces every admin rule and every admin route
        // in one change.
        AdminWrite(
            "PUT", "/admin/state", status: 200,
            .change(action: "state.replace") { request throws(APIError) in
                let body = try request.decodeBody(AdminStateBody.self, describedAs: #"{"rules": [...], "routes": [...]}"#)
                return .replaceAll(rules: try adminRules(body.rules), routes: body.routes)
            }),
        // Re-reads the config directory; `422` with every issue when it does not load.
        AdminWrite("POST", "/admin/reload", status: 200, takesBody: false, .reload),
    ]

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
}
