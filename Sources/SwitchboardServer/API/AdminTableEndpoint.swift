import SwitchboardCore
import SwitchboardHTTP
import SwitchboardStore

/// `GET /admin/table[?module=M][&prefix=P][&limit=N][&cursor=C]`: the full routing table,
/// config and admin routes, with module, patterns, target, web URL and source, a page at a
/// time (it works at a million routes: a page costs its own size).
struct AdminTableEndpoint: Sendable {
    /// The most rows a page may ask for.
    static let maximumLimit = 1_000
    static let defaultLimit = 100

    let context: ServerContext

    func list(_ request: APIRequest) throws(APIError) -> HTTPResponse {
        let snapshot = context.snapshot
        let limit = try Self.integer(request, "limit", default: Self.defaultLimit, range: 1...Self.maximumLimit)
        let cursor = try Self.integer(request, "cursor", default: 0, range: 0...Int(Int32.max))
        let filter = Snapshot.TableFilter(
            module: request.queryValue("module").flatMap { $0.isEmpty ? nil : $0 },
            idPrefix: request.queryValue("prefix").flatMap { $0.isEmpty ? nil : $0 })
        let page = snapshot.tablePage(filter: filter, start: cursor, limit: limit)
        var members: [(key: String, value: JSONValue)] = [
            ("version", .number(Double(snapshot.admin.version))),
            ("total", .number(Double(snapshot.resolver.router.routes.count))),
            ("routes", .array(page.rows.map(\.json))),
        ]
        if let next = page.next { members.append(("next", .string(String(next)))) }
        return .json(JSONValue.object(members).jsonBytes, headers: [("ETag", AdminEndpoints.etag(snapshot.admin.version))])
    }

    /// A whole-number query parameter within `range`.
    private static func integer(
        _ request: APIRequest, _ name: String, default value: Int, range: ClosedRange<Int>
    ) throws(APIError) -> Int {
        guard let text = request.queryValue(name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw APIError.badRequest(
                "invalid_parameter", "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return number
    }
}
