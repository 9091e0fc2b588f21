/// A route file, `routes.d/<module>.yaml`: each business module owns its file.
public struct RouteFile: Sendable, Hashable, Codable {
    /// The module that owns these routes.
    public var module: String
    public var routes: [RouteDefinition]

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
