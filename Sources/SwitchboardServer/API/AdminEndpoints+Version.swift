import SwitchboardCore
import SwitchboardHTTP
import SwitchboardStore

extension AdminEndpoints {
    /// `GET /admin/history/{version}`: the admin rules and routes as they were at `version`
    /// (the current version, 0, or any version the history still holds), so that two versions
    /// can be compared before one is rolled back to. `404 not_found` otherwise.
    func versionState(_ request: APIRequest) throws(APIError) -> HTTPResponse {
        let admin = context.snapshot.admin
        let text = request.pathID ?? ""
        guard let version = Int(text), version >= 0 else {
            throw APIError.badRequest("invalid_parameter", "the version must be a whole number, not '\(text)'")
        }
        guard version <= admin.version, let content = admin.content(atVersion: version) else {
            throw APIError(
                status: 404, code: "not_found",
                message: "version \(version) is not in the history (the current version is \(admin.version), "
                    + "history_limit keeps the last changes); see GET /admin/history")
        }
        return Self.versioned(
            admin.version,
            .object([
                ("version", .number(Double(version))),
                ("current", .number(Double(admin.version))),
                ("rules", .array(content.rules.map { Self.json($0, source: "admin") })),
                ("routes", .array(content.routes.map(Self.json))),
            ]))
    }
}
