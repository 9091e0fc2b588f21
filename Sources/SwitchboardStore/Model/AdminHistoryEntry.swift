import SwitchboardCore

/// One acknowledged admin change: who made it, what it changed, and how, so that
/// `POST /admin/rollback` can rebuild any version still in the history from the current one.
///
/// An entry holds the change (a ``ListSplice`` of the rules and one of the routes), not the
/// state it left: storing it costs what the change costs, whatever the size of the state.
package struct AdminHistoryEntry: Sendable, Hashable {
    /// The version this change created.
    package var version: Int
    /// When it was acknowledged (RFC 3339, UTC).
    package var time: String
    /// The name of the admin token that made it.
    package var token: String
    /// `rules.add`, `rules.replace`, `rules.update`, `rules.move`, `rules.delete`, `routes.add`,
    /// `routes.update`, `routes.delete`, `rollback` or `state.replace`. Edits and moves need no entry of their
    /// own: the splices between the states before and after record them like any change.
    package var action: String
    /// The ids of the rules and routes it added, changed or removed.
    package var ids: [String]
    /// For a rollback, the version it restored.
    package var rollbackTo: Int?
    /// How many admin rules there were after the change.
    package var ruleCount: Int
    /// How many admin routes there were after the change.
    package var routeCount: Int
    /// How the admin rules changed.
    package var rulesChange: ListChange<RewriteRule>
    /// How the admin routes changed.
    package var routesChange: ListChange<AdminRoute>

    package init(
        version: Int, time: String, token: String, action: String, ids: [String], rollbackTo: Int? = nil, ruleCount: Int,
        routeCount: Int, rulesChange: ListChange<RewriteRule>, routesChange: ListChange<AdminRoute>
    ) {
        self.version = version
        self.time = time
        self.token = token
        self.action = action
        self.ids = ids
        self.rollbackTo = rollbackTo
        self.ruleCount = ruleCount
        self.routeCount = routeCount
        self.rulesChange = rulesChange
        self.routesChange = routesChange
    }

    /// The entry for the change from `before` to `after` (whose version it records).
    ///
    /// For a rollback (`rollbackTo`), the change stored is the smaller of one splice from
    /// `before` to `after` and the undoing of every change `before`'s history has after the
    /// version restored: with a long list and changes far apart, the single splice would span
    /// everything between them.
    package init(
        from before: AdminState, to after: AdminState, time: String, token: String, action: String, rollbackTo: Int? = nil
    ) {
        let rulesSplice = ListSplice(from: before.rules, to: after.rules)
        let routesSplice = ListSplice(from: before.routes, to: after.routes)
        var rulesChange = ListChange([rulesSplice])
        var routesChange = ListChange([routesSplice])
        if let rollbackTo, let undoing = before.changesUndone(after: rollbackTo),
            undoing.rules.size + undoing.routes.size < rulesChange.size + routesChange.size,
            undoing.rules.applied(to: before.rules) == after.rules, undoing.routes.applied(to: before.routes) == after.routes
        {
            (rulesChange, routesChange) = undoing
        }
        self.init(
            version: after.version, time: time, token: token, action: action,
            ids: Self.changedIDs(rules: rulesSplice, routes: routesSplice), rollbackTo: rollbackTo, ruleCount: after.rules.count,
            routeCount: after.routes.count, rulesChange: rulesChange, routesChange: routesChange)
    }

    /// The ids that differ between two admin states: added, removed or changed rules and routes
    /// (rules first; within each, the new list's order, then what was removed).
    package static func changedIDs(from before: AdminState, to after: AdminState) -> [String] {
        changedIDs(rules: ListSplice(from: before.rules, to: after.rules), routes: ListSplice(from: before.routes, to: after.routes))
    }

    /// The ids a change touches. Ids are unique within the rules and within the routes, and
    /// the items outside a splice are the same before and after, so only the splices' own
    /// items need comparing.
    static func changedIDs(rules: ListSplice<RewriteRule>, routes: ListSplice<AdminRoute>) -> [String] {
        var ids: [String] = []
        func compare<Item: Equatable>(_ old: [Item], _ new: [Item], id: (Item) -> String) {
            let oldByID = Dictionary(old.map { (id($0), $0) }, uniquingKeysWith: { first, _ in first })
            let newByID = Dictionary(new.map { (id($0), $0) }, uniquingKeysWith: { first, _ in first })
            for item in new where oldByID[id(item)] != item { ids.append(id(item)) }
            for item in old where newByID[id(item)] == nil { ids.append(id(item)) }
        }
        compare(rules.removed, rules.inserted, id: \.id)
        compare(routes.removed, routes.inserted, id: \.definition.id)
        return ids
    }
}

extension AdminHistoryEntry: Codable {
    enum CodingKeys: String, CodingKey {
        case version, time, token, action, ids, rollbackTo, ruleCount, routeCount, rulesChange, routesChange
    }
}
