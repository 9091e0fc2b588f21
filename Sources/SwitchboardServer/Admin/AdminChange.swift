import SwitchboardCore
import SwitchboardStore

/// One change to the admin state, as a value: what an admin asked for, before it is checked
/// against the running snapshot. ``AdminWriter`` applies it as one transaction.
///
/// A change is made by the admin write that asks for it (``AdminWrite/all``), which also
/// gives it the name the history records.
package struct AdminChange: Sendable {
    /// What the change does to the admin state.
    package enum Edit: Sendable {
        /// Appends rules after the admin rules.
        case addRules([RewriteRule])
        /// Replaces every admin rule.
        case replaceRules([RewriteRule])
        /// Replaces one admin rule in place, keeping its position.
        case replaceRule(id: String, with: RewriteRule)
        /// Moves one admin rule next to another.
        case moveRule(id: String, to: RulePosition)
        /// Removes one admin rule.
        case deleteRule(id: String)
        /// Adds routes.
        case addRoutes([AdminRoute])
        /// Replaces one admin route in place.
        case replaceRoute(id: String, with: AdminRoute)
        /// Removes one admin route.
        case deleteRoute(id: String)
        /// Makes the admin rules and routes of an earlier version current again, as a new
        /// version.
        case rollback(toVersion: Int)
        /// Replaces every admin rule and every admin route at once: what `switchboard admin
        /// apply` sends to make the server equal to a file.
        case replaceAll(rules: [RewriteRule], routes: [AdminRoute])
    }

    /// What it does.
    package let edit: Edit
    /// The name the history records (`rules.add`, `routes.delete`, `rollback`, …): the
    /// asking write's ``AdminWrite/Effect/change(action:edit:)``. State files and PostgreSQL
    /// keep these names, so they are never renamed.
    package let action: String

    init(_ edit: Edit, action: String) {
        self.edit = edit
        self.action = action
    }

    /// Where a moved rule goes: just before or just after another admin rule.
    package enum RulePosition: Sendable, Equatable {
        case before(String)
        case after(String)

        /// The id of the rule it is placed next to.
        var anchor: String {
            switch self {
            case .before(let id), .after(let id): id
            }
        }
    }

    /// The rule a move moves, for the history and dry runs: a move changes no item, only the
    /// order, which comparing the items by id does not see.
    var movedRuleID: String? {
        if case .moveRule(let id, _) = edit { return id }
        return nil
    }

    /// The version a rollback restores, for the history.
    var rollbackTarget: Int? {
        if case .rollback(let version) = edit { return version }
        return nil
    }

    /// Edits `admin` as the change asks, checking it against `snapshot` (the running one).
    /// The result is validated as a whole afterwards, when the snapshot is rebuilt.
    ///
    /// - Throws: ``AdminChangeError`` when the change is invalid on its own, names what does
    ///   not exist, or takes an id owned by someone else.
    func apply(to admin: inout AdminState, in snapshot: Snapshot) throws(AdminChangeError) {
        switch edit {
        case .addRules(let rules):
            try Self.validate(rules)
            try Self.checkIDsAreFree(rules, adminRules: admin.rules, snapshot)
            admin.rules += rules
        case .replaceRules(let rules):
            try Self.validate(rules)
            try Self.checkIDsAreFree(rules, adminRules: [], snapshot)
            admin.rules = rules
        case .replaceRule(let id, let rule):
            let index = try Self.adminRuleIndex(id, in: admin, snapshot, verb: "change")
            try Self.validate([rule])
            admin.rules[index] = rule
        case .moveRule(let id, let position):
            let index = try Self.adminRuleIndex(id, in: admin, snapshot, verb: "move")
            let anchor = position.anchor
            guard anchor != id else {
                throw AdminChangeError(.invalid, code: "invalid_move", message: "rule '\(id)' cannot be moved next to itself")
            }
            guard admin.rules.contains(where: { $0.id == anchor }) else {
                if snapshot.config.rewriteRules.contains(where: { $0.id == anchor }) {
                    throw AdminChangeError(
                        .conflict, code: "config_rule",
                        message: "rule '\(anchor)' comes from rewrites.yaml; admin rules always run before config rules, "
                            + "so they can only be placed next to another admin rule")
                }
                throw AdminChangeError(.notFound, code: "not_found", message: "no admin rule with id '\(anchor)'")
            }
            let rule = admin.rules.remove(at: index)
            // The anchor's index is looked up again: removing the moved rule may have shifted it.
            let anchorIndex = admin.rules.firstIndex { $0.id == anchor } ?? admin.rules.endIndex
            switch position {
            case .before: admin.rules.insert(rule, at: anchorIndex)
            case .after: admin.rules.insert(rule, at: min(anchorIndex + 1, admin.rules.endIndex))
            }
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
            try Self.checkNotConfigRoutes(routes, snapshot)
            admin.routes += routes
        case .replaceRoute(let id, let route):
            guard let index = admin.routes.firstIndex(where: { $0.definition.id == id }) else {
                if snapshot.isConfigRoute(id: id) {
                    throw AdminChangeError(
                        .conflict, code: "config_route",
                        message: "route '\(id)' comes from a route file; change the config to change it")
                }
                throw AdminChangeError(.notFound, code: "not_found", message: "no admin route with id '\(id)'")
            }
            admin.routes[index] = route
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
        case .replaceAll(let rules, let routes):
            try Self.validate(rules)
            try Self.checkIDsAreFree(rules, adminRules: [], snapshot)
            try Self.checkNotConfigRoutes(routes, snapshot)
            admin.rules = rules
            admin.routes = routes
        }
    }

    /// Admin routes cannot take the id of a config route.
    ///
    /// - Throws: ``AdminChangeError`` (`conflict`) naming the first route that does.
    private static func checkNotConfigRoutes(_ routes: [AdminRoute], _ snapshot: Snapshot) throws(AdminChangeError) {
        for route in routes where snapshot.isConfigRoute(id: route.definition.id) {
            throw AdminChangeError(
                .conflict, code: "conflict",
                message: "route '\(route.definition.id)' exists in the config; admin routes cannot replace config routes")
        }
    }

    /// Where the admin rule `id` is.
    ///
    /// - Throws: ``AdminChangeError``: `conflict` for a rule of rewrites.yaml (which only the
    ///   config can `verb`), `notFound` for an id no rule has.
    private static func adminRuleIndex(
        _ id: String, in admin: AdminState, _ snapshot: Snapshot, verb: String
    ) throws(AdminChangeError) -> Int {
        if let index = admin.rules.firstIndex(where: { $0.id == id }) { return index }
        if snapshot.config.rewriteRules.contains(where: { $0.id == id }) {
            throw AdminChangeError(
                .conflict, code: "config_rule", message: "rule '\(id)' comes from rewrites.yaml; change the config file to \(verb) it")
        }
        throw AdminChangeError(.notFound, code: "not_found", message: "no admin rule with id '\(id)'")
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
