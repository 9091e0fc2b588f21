import SwitchboardCore

/// What admins pushed over the API: rewrite rules and routes, with the version that every
/// acknowledged change bumps. Persisted in `data_dir/state.json`.
package struct AdminState: Sendable, Hashable, Codable {
    /// Bumped by every acknowledged change; sent as the `ETag`.
    package var version: Int
    /// Admin rules, which run before the config's `rewrites.yaml` rules.
    package var rules: [RewriteRule]
    /// Routes registered at run time.
    package var routes: [AdminRoute]
    /// The last changes, oldest first, bounded by `history_limit`.
    package var history: [AdminHistoryEntry]

    package init(version: Int = 0, rules: [RewriteRule] = [], routes: [AdminRoute] = [], history: [AdminHistoryEntry] = []) {
        self.version = version
        self.rules = rules
        self.routes = routes
        self.history = history
    }

    enum CodingKeys: String, CodingKey {
        case version, rules, routes, history
    }

    /// Decodes a state document; one without `history` has an empty one. A history written
    /// with the whole state in each entry (`state.json` before the change log) is turned into
    /// changes.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .version)
        let rules = try container.decode([RewriteRule].self, forKey: .rules)
        let routes = try container.decode([AdminRoute].self, forKey: .routes)
        let stored = try container.decodeIfPresent([StoredHistoryEntry].self, forKey: .history) ?? []
        self.init(storedHistory: stored, version: version, rules: rules, routes: routes)
    }

    /// The admin rules and routes as they were at `version`, if the history still has it
    /// (version 0 is the empty state every server starts from): the current ones with the
    /// changes after `version` undone, newest first.
    package func content(atVersion version: Int) -> (rules: [RewriteRule], routes: [AdminRoute])? {
        if version == self.version { return (rules, routes) }
        if version == 0 { return ([], []) }
        guard let undoing = changesUndone(after: version), let rules = undoing.rules.applied(to: rules),
            let routes = undoing.routes.applied(to: routes)
        else { return nil }
        return (rules, routes)
    }

    /// The change that turns the current rules and routes into those of `version`: the changes
    /// after it undone, newest first. `nil` when the history does not have `version` and every
    /// version after it.
    package func changesUndone(after version: Int) -> (rules: ListChange<RewriteRule>, routes: ListChange<AdminRoute>)? {
        guard version < self.version, history.contains(where: { $0.version == version }) else { return nil }
        var rules: [ListSplice<RewriteRule>] = []
        var routes: [ListSplice<AdminRoute>] = []
        var expected = self.version
        for entry in history.reversed() where entry.version > version {
            // Every version between has its entry: a gap would undo the wrong changes.
            guard entry.version == expected else { return nil }
            rules += entry.rulesChange.inverse.splices
            routes += entry.routesChange.inverse.splices
            expected -= 1
        }
        guard expected == version else { return nil }
        return (ListChange(rules), ListChange(routes))
    }
}

/// A route registered over the admin API: a route definition plus its module
/// (`"admin"` when not given).
package struct AdminRoute: Sendable, Hashable, Codable {
    package var module: String
    package var definition: RouteDefinition

    package init(module: String, definition: RouteDefinition) {
        self.module = module
        self.definition = definition
    }

    enum CodingKeys: String, CodingKey { case module }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        module = try container.decodeIfPresent(String.self, forKey: .module) ?? "admin"
        definition = try RouteDefinition(from: decoder, extraAllowedKeys: ["module"])
    }

    package func encode(to encoder: any Encoder) throws {
        try definition.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(module, forKey: .module)
    }
}
