import SwitchboardCore
import SwitchboardStore

/// One change to the admin state, as a value: what an admin asked for, before it is checked
/// against the running snapshot. ``AdminWriter`` applies it as one transaction.
package enum AdminChange: Sendable {
    /// Appends rules after the admin rules (`POST /admin/rules`).
    case addRules([RewriteRule])
    /// Replaces every admin rule (`PUT /admin/rules`).
    case replaceRules([RewriteRule])
    /// Removes one admin rule (`DELETE /admin/rules/{id}`).
    case deleteRule(id: String)
    /// Adds routes (`POST /admin/routes`).
    case addRoutes([AdminRoute])
    /// Removes one admin route (`DELETE /admin/routes/{id}`).
    case deleteRoute(id: String)
    /// Makes the admin rules and routes of an earlier version current again, as a new version
    /// (`POST /admin/rollback`).
    case rollback(toVersion: Int)

    /// The name the history records: `rules.add`, `rules.replace`, `rules.delete`,
    /// `routes.add`, `routes.delete`, `rollback`.
    package var action: String {
        switch self {
        case .addRules: "rules.add"
        case .replaceRules: "rules.replace"
        case .deleteRule: "rules.delete"
        case .addRoutes: "routes.add"
        case .deleteRoute: "routes.delete"
        case .rollback: "rollback"
        }
    }

    /// The version a rollback restores, for the history.
    var rollbackTarget: Int? {
        if case .rollback(let version) = self { return version }
        return nil
    }

    /// Edits `admin` as the change asks, checking it against `snapshot` (the running one).
    /// The result is validated as a whole afterwards, when the snapshot is rebuilt.
    ///
    /// - Throws: ``AdminChangeError`` when the change is invalid on its own, names what does
    ///   not exist, or takes an id owned by someone else.
    func apply(to admin: inout AdminState, in snapshot: Snapshot) throws(AdminChangeError) {
        switch self {
        case .addRules(let rules):
            try Self.validate(rules)
            try Self.checkIDsAreFree(rules, adminRules: admin.rules, snapshot)
            admin.rules += rules
        case .replaceRules(let rules):
            try Self.validate(rules)
            try Self.checkIDsAreFree(rules, adminRules: [], snapshot)
            admin.rules = rules
        case .deleteRule(let id):
            if let index = admin.rules.firstIndex(where: { $0.id == id }) {
                admin.rules.remove(at: index)
            } else if snapshot.config.rewriteRules.contains(where: { $0.id == id }) {
                throw AdminChangeError(
                    .conflict, code: "config_rule",
                    message: "rule '\(id)' comes from rewrites.yaml; change the config file to remove it")
            } else {
                throw AdminChangeError(.notFound, code: "not_found", message: "no admin rule with id '\(id)'")
            }
        case .addRoutes(let routes):
            for route in routes where snapshot.isConfigRoute(id: route.definition.id) {
                throw AdminChangeError(
                    .conflict, code: "conflict",
                    message: "route '\(route.definition.id)' exists in the config; admin routes cannot replace config routes")
            }
            admin.routes += routes
        case .deleteRoute(let id):
            if let index = admin.routes.firstIndex(where: { $0.definition.id == id }) {
                admin.routes.remove(at: index)
            } else if snapshot.isConfigRoute(id: id) {
                throw AdminChangeError(
                    .conflict, code: "config_route",
                    message: "route '\(id)' comes from a route file; change the config to remove it")
            } else {
                throw AdminChangeError(.notFound, code: "not_found", message: "no admin route with id '\(id)'")
            }
        case .rollback(let version):
            guard let content = admin.content(atVersion: version) else {
                let oldest = admin.history.first.map { "; the oldest kept is \($0.version)" } ?? ""
                throw AdminChangeError(.notFound, code: "not_found", message: "version \(version) is not in the history\(oldest)")
            }
            admin.rules = content.rules
            admin.routes = content.routes
        }
    }

    /// Validates a batch of rules on its own, so that errors name the index within the batch.
    private static func validate(_ rules: [RewriteRule]) throws(AdminChangeError) {
        do {
            _ = try RewriteEngine(rules: rules)
        } catch {
            let duplicate = error.issues.allSatisfy { $0.code == .duplicateID }
            throw AdminChangeError(
                duplicate ? .conflict : .invalid, code: duplicate ? "conflict" : "invalid_rule",
                message: error.issues.map(\.description).joined(separator: "; "),
                issues: error.issues.map {
                    ConfigIssue(file: nil, item: $0.ruleID, message: $0.description, code: $0.code.description)
                })
        }
    }

    /// A new rule's id must not be taken by a config rule or a remaining admin rule (naming
    /// the batch index and who has the id, rather than the combined list's indexes).
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
                .conflict, code: "conflict", message: message,
                issues: [ConfigIssue(file: nil, item: rule.id, message: message, code: "duplicate_id")])
        }
    }
}
