import SwitchboardCore
import SwitchboardHTTP
import SwitchboardStore

/// `GET /admin/table[?module=M][&prefix=P][&limit=N][&cursor=C]`: the full routing table,
/// config and admin routes, with module, patterns, target, web URL, source, hits and where
/// `GET /open` sends each platform (``OpenDecision/summary(for:settings:)``), a page
/// at a time (it works at a million routes: a page costs its own size).
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
            module: try request.queryValue("module").flatMap { $0.isEmpty ? nil : $0 },
            idPrefix: try request.queryValue("prefix").flatMap { $0.isEmpty ? nil : $0 })
        let page = snapshot.tablePage(filter: filter, start: cursor, limit: limit)
        let hits = context.metrics.routeHits(page.rows.map(\.route.id))
        var members: [(key: String, value: JSONValue)] = [
            ("version", .number(Double(snapshot.admin.version))),
            ("total", .number(Double(snapshot.resolver.router.routes.count))),
            ("routes", .array(zip(page.rows, hits).map { Self.json($0, hits: $1, settings: snapshot.config.settings) })),
        ]
        if let next = page.next { members.append(("next", .string(String(next)))) }
        return .json(JSONValue.object(members).jsonBytes, headers: [("ETag", AdminEndpoints.etag(snapshot.admin.version))])
    }

    /// A row as listed: the route, then `hits`, the resolutions that matched it since the
    /// start, and `open`, where `/open` sends each platform.
    private static func json(_ row: Snapshot.TableRow, hits: Int, settings: ServerSettings) -> JSONValue {
        guard case .object(var members) = row.json else { return row.json }
        members.append(("hits", .number(Double(hits))))
        members.append(("open", OpenDecision.summary(for: row.route, settings: settings)))
        return .object(members)
    }

    /// A whole-number query parameter within `range`.
    private static func integer(
        _ request: APIRequest, _ name: String, default value: Int, range: ClosedRange<Int>
    ) throws(APIError) -> Int {
        guard let text = try request.queryValue(name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw APIError.badRequest(
                "invalid_parameter", "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return number
    }
}
