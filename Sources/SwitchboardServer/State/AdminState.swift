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

    public init(version: Int = 0, rules: [RewriteRule] = [], routes: [AdminRoute] = []) {
        self.version = version
        self.rules = rules
        self.routes = routes
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
