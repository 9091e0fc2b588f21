/// A route file, `routes.d/<module>.yaml`: each business module owns its file.
public struct RouteFile: Sendable, Hashable, Codable {
    /// The module that owns these routes.
    public var module: String
    /// The routes, in file order.
    public var routes: [RouteDefinition]

    /// A route file of `module` with `routes`.
    public init(module: String, routes: [RouteDefinition]) {
        self.module = module
        self.routes = routes
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case module, routes }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        module = try container.decode(String.self, forKey: .module)
        routes = try container.decodeIfPresent([RouteDefinition].self, forKey: .routes) ?? []
    }
}
