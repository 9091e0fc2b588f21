import SwitchboardCore

/// What admins pushed over the API: rewrite rules and routes, with the version that every
/// acknowledged change bumps. Persisted in `data_dir/state.json`.
public struct AdminState: Sendable, Hashable, Codable {
    /// Bumped by every acknowledged change; sent as the `ETag`.
    public var version: Int
    /// Admin rules, which run before the config's `rewrites.yaml` rules.
    public var rules: [RewriteRule]
    /// Routes registered at run time.
    public var routes: [AdminRoute]
    /// The last changes, oldest first, bounded by `history_limit`.
    public var history: [AdminHistoryEntry]

    public init(version: Int = 0, rules: [RewriteRule] = [], routes: [AdminRoute] = [], history: [AdminHistoryEntry] = []) {
        self.version = version
        self.rules = rules
        self.routes = routes
        self.history = history
    }

    enum CodingKeys: String, CodingKey {
        case version, rules, routes, history
    }

    /// Decodes a state file; files written before the history existed have none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        rules = try container.decode([RewriteRule].self, forKey: .rules)
        routes = try container.decode([AdminRoute].self, forKey: .routes)
        history = try container.decodeIfPresent([AdminHistoryEntry].self, forKey: .history) ?? []
    }

    /// The admin rules and routes as they were at `version`, if the history still has it
    /// (version 0 is the empty state every server starts from).
    public func content(atVersion version: Int) -> (rules: [RewriteRule], routes: [AdminRoute])? {
        if version == self.version { return (rules, routes) }
        if version == 0 { return ([], []) }
        return history.last { $0.version == version }.map { ($0.rules, $0.routes) }
    }
}

/// A route registered over the admin API: a route definition plus its module
/// (`"admin"` when not given).
public struct AdminRoute: Sendable, Hashable, Codable {
    public var module: String
    public var definition: RouteDefinition

    public init(module: String, definition: RouteDefinition) {
        self.module = module
        self.definition = definition
    }

    enum CodingKeys: String, CodingKey { case module }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        module = try container.decodeIfPresent(String.self, forKey: .module) ?? "admin"
        definition = try RouteDefinition(from: decoder, extraAllowedKeys: ["module"])
    }

    public func encode(to encoder: any Encoder) throws {
        try definition.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(module, forKey: .module)
    }
}
