import SwitchboardCore
import SwitchboardHTTP

/// One admin write of the API (design.md §5), declared once: its method and path, the status
/// it answers with, its metrics label and role, and how its request becomes an
/// ``AdminChange`` (or the reload).
///
/// ``all`` is the one list of them: the endpoint table registers it (``register(into:handle:)``),
/// `POST /admin/preview` looks a write up in it (``PreviewedWrite``), and the history records the
/// action names it gives.
struct AdminWrite: Sendable {
    /// What a write does.
    enum Effect: Sendable {
        /// Changes the admin state. `edit` reads the request (its body, checked strictly, and
        /// its `{id}`) exactly as the write and its preview both do; the change honours
        /// `If-Match` and `?dry_run=`. The history records it as `action`.
        case change(action: String, edit: @Sendable (APIRequest) throws(APIError) -> AdminChange.Edit)
        /// Re-reads the config directory (`POST /admin/reload`). It takes no dry run: going on
        /// would reload for real.
        case reload
    }

    /// The HTTP method.
    let method: String
    /// The path, ending in `/{id}` for a write on one item.
    let path: String
    /// The status of a success (a dry run answers `200`).
    let status: Int
    /// Whether the request carries a body (a `DELETE` and the reload take none).
    let takesBody: Bool
    /// What it does.
    let effect: Effect
    /// The label of its metrics series.
    let metricsLabel: String
    /// The role its token needs.
    let role: AdminRole

    init(
        _ method: String, _ path: String, status: Int, takesBody: Bool = true, metricsLabel: String = "admin",
        role: AdminRole = .write, _ effect: Effect
    ) {
        self.method = method
        self.path = path
        self.status = status
        self.takesBody = takesBody
        self.effect = effect
        self.metricsLabel = metricsLabel
        self.role = role
    }

    /// The last segment of a path that names one item.
    static let idSegment = "{id}"

    /// The history's name for the change, `nil` for the reload.
    var action: String? {
        if case .change(let action, _) = effect { return action }
        return nil
    }

    /// The change `request` asks for, `nil` for the reload.
    ///
    /// - Throws: ``APIError`` (`400`) for a body or `{id}` the write refuses.
    func change(of request: APIRequest) throws(APIError) -> AdminChange? {
        guard case .change(let action, let edit) = effect else { return nil }
        return AdminChange(try edit(request), action: action)
    }

    /// Whether `path` is this write's, and its `{id}` when it has one: the path itself, or for
    /// a write on one item, the collection's path and one more non-empty segment (the id,
    /// percent-decoded as the endpoint table decodes it).
    func match(_ path: String) -> (isMatch: Bool, pathID: String?) {
        guard self.path.hasSuffix("/" + Self.idSegment) else { return (path == self.path, nil) }
        let collection = self.path.dropLast(Self.idSegment.count)
        guard path.hasPrefix(collection) else { return (false, nil) }
        let rawID = path.dropFirst(collection.count)
        guard !rawID.isEmpty, !rawID.contains("/") else { return (false, nil) }
        return (true, PercentEncoding.decode(String(rawID), plusAsSpace: false) ?? String(rawID))
    }

    /// Registers every write of ``all`` in `table`, each answered by `handle`.
    static func register(
        into table: inout EndpointTable, handle: @escaping @Sendable (AdminWrite, APIRequest) throws(APIError) -> HTTPResponse
    ) {
        for write in all {
            table.add(
                write.method, write.path,
                Endpoint(write.metricsLabel, access: .admin(write.role)) { request throws(APIError) in
                    try handle(write, request)
                })
        }
    }

    /// The writes of ``all`` as a sentence, for error messages: the writes on one item read as
    /// one entry (`PUT|PATCH|DELETE /admin/rules/{id}`), the others one by one.
    static let listed: String = {
        var entries: [(methods: [String], path: String)] = []
        for write in all {
            if write.path.hasSuffix("/" + idSegment), let last = entries.indices.last, entries[last].path == write.path {
                entries[last].methods.append(write.method)
            } else {
                entries.append(([write.method], write.path))
            }
        }
        let names = entries.map { $0.methods.joined(separator: "|") + " " + $0.path }
        guard let last = names.last else { return "" }
        return names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " or " + last
    }()
}
