import SwitchboardCore

/// One acknowledged admin change: who made it, what it changed, and the admin state it left,
/// so that `POST /admin/rollback` can restore any version still in the history.
package struct AdminHistoryEntry: Sendable, Hashable, Codable {
    /// The version this change created.
    package var version: Int
    /// When it was acknowledged (RFC 3339, UTC).
    package var time: String
    /// The name of the admin token that made it.
    package var token: String
    /// `rules.add`, `rules.replace`, `rules.delete`, `routes.add`, `routes.delete` or `rollback`.
    package var action: String
    /// The ids of the rules and routes it added, changed or removed.
    package var ids: [String]
    /// For a rollback, the version it restored.
    package var rollbackTo: Int?
    /// The admin rules after the change.
    package var rules: [RewriteRule]
    /// The admin routes after the change.
    package var routes: [AdminRoute]

    package init(
        version: Int, time: String, token: String, action: String, ids: [String], rollbackTo: Int? = nil,
        rules: [RewriteRule], routes: [AdminRoute]
    ) {
        self.version = version
        self.time = time
        self.token = token
        self.action = action
        self.ids = ids
        self.rollbackTo = rollbackTo
        self.rules = rules
        self.routes = routes
    }

    /// The ids that differ between two admin states: added, removed or changed rules and routes.
    package static func changedIDs(from before: AdminState, to after: AdminState) -> [String] {
        var ids: [String] = []
        func compare<Item: Equatable>(_ old: [Item], _ new: [Item], id: (Item) -> String) {
            let oldByID = Dictionary(old.map { (id($0), $0) }, uniquingKeysWith: { first, _ in first })
            let newByID = Dictionary(new.map { (id($0), $0) }, uniquingKeysWith: { first, _ in first })
            for item in new where oldByID[id(item)] != item { ids.append(id(item)) }
            for item in old where newByID[id(item)] == nil { ids.append(id(item)) }
        }
        compare(before.rules, after.rules, id: \.id)
        compare(before.routes, after.routes, id: \.definition.id)
        return ids
    }
}
