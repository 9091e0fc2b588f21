import SwitchboardCore
import SwitchboardServer
import SwitchboardStore

/// The admin state a server holds, read over the API: `GET /admin/rules` (its `source: admin`
/// rules) and `GET /admin/routes`, both at one version.
struct ServerAdminState {
    var version: Int
    var rules: [RewriteRule]
    var routes: [AdminRoute]

    /// Reads it.
    ///
    /// - Throws: ``AdminClientError``; a state that changed between the two reads is refused
    ///   as a `412` would be (run the command again).
    static func read(from client: AdminClient) async throws(AdminClientError) -> ServerAdminState {
        let rules = try await client.send("GET", "/admin/rules")
        let routes = try await client.send("GET", "/admin/routes")
        guard let version = rules.version, let routesVersion = routes.version else {
            throw .unexpectedAnswer("GET /admin/rules and /admin/routes answer with an ETag")
        }
        guard version == routesVersion else {
            throw .refused(
                APIError(
                    status: 412, code: "version_mismatch",
                    message: "the admin state changed while it was read (version \(version), then \(routesVersion)); run the command again")
            )
        }
        let listedRules: [AdminRuleItem] = try items(rules.body, "rules")
        return ServerAdminState(
            version: version, rules: listedRules.filter { $0.source == "admin" }.map(\.rule), routes: try items(routes.body, "routes"))
    }

    /// The `key` list of a body, each item decoded as the server decodes what it is sent.
    private static func items<Item: Decodable>(_ body: JSONValue, _ key: String) throws(AdminClientError) -> [Item] {
        guard case .array(let values)? = body[key] else { throw .unexpectedAnswer("no '\(key)' list in \(body.jsonText.prefix(200))") }
        do {
            return try values.map { try ConfigDirectory.decodeYAML(Item.self, from: $0.jsonText) }
        } catch {
            throw .unexpectedAnswer("an item of '\(key)' does not decode: \(DecodingErrorDescription.describe(error))")
        }
    }

    /// The rules in the `rewrites.yaml` format: `{"rules": [...]}`.
    var rulesDocument: JSONValue { .object([("rules", .array(rules.map(\.fileJSON)))]) }

    /// The routes as `apply -f` reads them: `{"routes": [...]}`, each with its module.
    var routesDocument: JSONValue { .object([("routes", .array(routes.map(\.fileJSON)))]) }
}
