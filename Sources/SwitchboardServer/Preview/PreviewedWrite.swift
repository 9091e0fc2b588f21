/// The admin write a `POST /admin/preview` names by its method and path, as
/// `{"method": "DELETE", "path": "/admin/rules/double11"}` says it: one of ``AdminWrite/all``.
struct PreviewedWrite: Sendable {
    /// The write.
    let write: AdminWrite
    /// The `{id}` of its path, percent-decoded, for a write on one item.
    let pathID: String?

    /// The write `method` on `path` is.
    ///
    /// - Throws: ``APIError`` (`400 invalid_body`) for a method and path that are not an admin
    ///   write (a query is not part of the write's path).
    init(method: String, path: String) throws(APIError) {
        if !path.contains("?") {
            for write in AdminWrite.all where write.method == method {
                let match = write.match(path)
                if match.isMatch {
                    self.write = write
                    self.pathID = match.pathID
                    return
                }
            }
        }
        throw APIError.badRequest(
            "invalid_body", "'\(method) \(path)' is not an admin write that can be previewed; preview \(AdminWrite.listed)")
    }
}
