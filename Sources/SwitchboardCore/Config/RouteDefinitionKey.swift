/// The keys of a route definition (one entry of a route file's `routes:`): the one list that
/// both ``RouteDefinition``'s `Codable` conformance and the fast ``RouteFileJSONReader`` are
/// driven by. A key added here is accepted by both: the JSON reader leaves a key it does not
/// read itself to the YAML path, which decodes it through ``RouteDefinition/init(from:)``.
enum RouteDefinitionKey: String, CodingKey, CaseIterable {
    case id, pattern, patterns, target, params, web, app, minAppVersion, preview, open, examples
}
