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

    /// Decodes a state file; a state file without `history` has an empty one.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        rules = try container.decode([RewriteRule].self, forKey: .rules)
        routes = try container.decode([AdminRoute].self, forKey: .routes)
        history = try container.decodeIfPresent([AdminHistoryEntry].self, forKey: .history) ?? []
    }

    /// The admin rules and routes as they were at `version`, if the history still has it
    /// (version 0 is the empty state every server starts from).
    package func content(atVersion version: Int) -> (rules: [RewriteRule], routes: [AdminRoute])? {
        if version == self.version { return (rules, routes) }
        if version == 0 { return ([], []) }
        return history.last { $0.version == version }.map { ($0.rules, $0.routes) }
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
