import SwitchboardCore

/// The body of `POST /admin/preview`: the write to preview, as it would be sent
/// (`{"method": "POST", "path": "/admin/rules", "body": {…}}`); `body` is left out (or
/// `null`) for a write that takes none.
struct PreviewBody: Decodable {
    let method: String
    let path: String
    let body: JSONValue?

    enum CodingKeys: String, CodingKey, CaseIterable { case method, path, body }

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        method = try container.decode(String.self, forKey: .method)
        path = try container.decode(String.self, forKey: .path)
        let body = try container.decodeIfPresent(JSONValue.self, forKey: .body)
        self.body = body == .null ? nil : body
    }
}
