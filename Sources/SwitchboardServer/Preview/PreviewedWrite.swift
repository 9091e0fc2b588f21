import SwitchboardCore

/// The admin write a `POST /admin/preview` names by its method and path, as
/// `{"method": "DELETE", "path": "/admin/rules/double11"}` says it.
enum PreviewedWrite: Sendable, Equatable {
    /// A change of the admin state, with the `{id}` of its path.
    case change(AdminEndpoints.Write, pathID: String?)
    /// `POST /admin/reload`: the config directory as it is on disk now.
    case reload

    /// The writes that can be previewed, for error messages.
    static let listed =
        "POST /admin/rules, PUT /admin/rules, PUT|PATCH|DELETE /admin/rules/{id}, POST /admin/routes, "
        + "PUT|DELETE /admin/routes/{id}, POST /admin/rollback or POST /admin/reload"

    /// The write `method` on `path` is.
    ///
    /// - Throws: ``APIError`` (`400 invalid_body`) for a method and path that are not an admin
    ///   write.
    init(method: String, path: String) throws(APIError) {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        let collection = segments.count >= 3 && segments[0].isEmpty && segments[1] == "admin" ? segments[2] : ""
        let rawID = segments.count == 4 && !segments[3].isEmpty ? String(segments[3]) : nil
        let pathID = rawID.map { PercentEncoding.decode($0, plusAsSpace: false) ?? $0 }
        let write: AdminEndpoints.Write?
        switch (method, collection, segments.count) {
        case ("POST", "rules", 3): write = .addRules
        case ("PUT", "rules", 3): write = .replaceRules
        case ("PUT", "rules", 4): write = .replaceRule
        case ("PATCH", "rules", 4): write = .moveRule
        case ("DELETE", "rules", 4): write = .deleteRule
        case ("POST", "routes", 3): write = .addRoutes
        case ("PUT", "routes", 4): write = .replaceRoute
        case ("DELETE", "routes", 4): write = .deleteRoute
        case ("POST", "rollback", 3): write = .rollback
        case ("POST", "reload", 3):
            self = .reload
            return
        default: write = nil
        }
        guard let write, segments.count == 3 || pathID != nil, !path.contains("?") else {
            throw APIError.badRequest(
                "invalid_body", "'\(method) \(path)' is not an admin write that can be previewed; preview \(Self.listed)")
        }
        self = .change(write, pathID: pathID)
    }

    /// Whether the write takes a body (`DELETE` and the reload take none).
    var takesBody: Bool {
        switch self {
        case .change(.deleteRule, _), .change(.deleteRoute, _), .reload: false
        case .change: true
        }
    }
}
