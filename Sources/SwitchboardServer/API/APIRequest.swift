import Foundation
import SwitchboardCore
import SwitchboardHTTP

/// A request as endpoints see it: the HTTP request, its query (checked whole, read on demand:
/// a malformed query is refused before any parameter is read), the `{id}` of the path, who is
/// asking, and the snapshot it is answered against.
struct APIRequest: Sendable {
    /// The request as received.
    let http: HTTPRequest
    /// The query parameters, decoded as they are asked for.
    let query: QueryParameters
    /// The last path segment, percent-decoded, for paths such as `/admin/rules/{id}`.
    let pathID: String?
    /// The name of the admin token presented, for admin endpoints.
    let actor: String?
    /// The snapshot this request is answered against, read once when it arrived.
    let snapshot: Snapshot
    /// The error code of a malformed query (the endpoint's).
    var malformedQueryCode = "invalid_query"

    /// Refuses a malformed query: the table calls it before the endpoint, unless the endpoint
    /// checks the query itself (``Endpoint/checksQuery``) before it reads a parameter.
    ///
    /// - Throws: ``APIError`` (`400` with ``malformedQueryCode``) saying where the query is
    ///   malformed.
    func checkQuery() throws(APIError) {
        do {
            try query.check()
        } catch {
            throw APIError.badRequest(malformedQueryCode, "the query string is malformed: \(error.description)")
        }
    }

    /// The value of the query parameter `name`, if any.
    ///
    /// - Throws: ``APIError`` (`400 invalid_parameter`) when the parameter is given more than
    ///   once: which of two values was meant is not ours to guess (`dry_run=1&dry_run=0`).
    func queryValue(_ name: String) throws(APIError) -> String? {
        let values = query.values(named: name)
        guard values.count <= 1 else {
            throw APIError.badRequest("invalid_parameter", "give the \(name) parameter once")
        }
        return values.first
    }

    /// The version `If-Match` names: `"5"`, `W/"5"` or `5`; `nil` for `*` or no header.
    ///
    /// - Throws: ``APIError`` (`412 version_mismatch`) for a value that is not a version ETag.
    func expectedVersion() throws(APIError) -> Int? {
        guard let header = http.header("If-Match") else { return nil }
        var value = header.trimmingCharacters(in: .whitespaces)
        guard !value.isEmpty, value != "*" else { return nil }
        if value.hasPrefix("W/") { value.removeFirst(2) }
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
        guard let version = Int(value) else {
            throw APIError(status: 412, code: "version_mismatch", message: "If-Match '\(header)' is not a version ETag")
        }
        return version
    }

    /// Decodes the JSON body as `Body`, strictly: every body type refuses unknown keys, and a
    /// body nested too deep or giving a name twice in an object is refused (``JSONBodyShape``).
    ///
    /// - Throws: ``APIError`` (`400 invalid_body`) naming what is wrong and where.
    func decodeBody<Body: Decodable>(_ type: Body.Type, describedAs shape: String) throws(APIError) -> Body {
        let findings = try inspectBody()
        let decoded = try decode(Body.self, from: http.body, describedAs: shape)
        try refuseDuplicate(in: findings)
        return decoded
    }

    /// Decodes the JSON body as `Body` after giving `key` the value `value` when the body is an
    /// object without `key` (the `id` of an item whose path already names it).
    ///
    /// - Throws: ``APIError`` (`400 invalid_body`) naming what is wrong and where.
    func decodeBody<Body: Decodable>(
        _ type: Body.Type, describedAs shape: String, defaulting key: String, to value: String
    ) throws(APIError) -> Body {
        let findings = try inspectBody()
        var source = http.body
        if let parsed = try? JSONDecoder().decode(JSONValue.self, from: Data(http.body)), case .object(var members) = parsed,
            !members.contains(where: { $0.key == key })
        {
            members.insert((key, .string(value)), at: 0)
            source = JSONValue.object(members).jsonBytes
        }
        let decoded = try decode(Body.self, from: source, describedAs: shape)
        try refuseDuplicate(in: findings)
        return decoded
    }

    /// The body's ``JSONBodyShape``; refused at once when it nests too deep (the decoder would
    /// call it invalid JSON).
    private func inspectBody() throws(APIError) -> JSONBodyShape.Findings {
        let findings = JSONBodyShape.inspect(http.body)
        guard !findings.isTooDeep else {
            throw APIError.badRequest(
                "invalid_body", "the body nests objects and arrays more than \(JSONBodyShape.maximumDepth) levels deep")
        }
        return findings
    }

    /// Refuses a body that gives one name twice in an object; the body has decoded, so the
    /// finding is about valid JSON.
    private func refuseDuplicate(in findings: JSONBodyShape.Findings) throws(APIError) {
        guard let duplicate = findings.duplicate else { return }
        let place = duplicate.path.isEmpty ? "the body" : "an object in '\(duplicate.path.joined(separator: "."))'"
        throw APIError.badRequest("invalid_body", "'\(duplicate.name)' is given twice in \(place); give each key once")
    }

    private func decode<Body: Decodable>(_ type: Body.Type, from body: [UInt8], describedAs shape: String) throws(APIError) -> Body {
        guard !body.isEmpty else {
            throw APIError.badRequest("invalid_body", "the request body is empty; send \(shape)")
        }
        do {
            return try JSONDecoder().decode(Body.self, from: Data(body))
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                // Foundation's decoder reports a number that does not fit the field (1.5 or
                // 1e30 for an integer) as invalid JSON: tell the two apart.
                guard (try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])) != nil else {
                    throw APIError.badRequest("invalid_body", "the body is not valid JSON; send \(shape)")
                }
                throw APIError.badRequest(
                    "invalid_body",
                    "a number in the body does not fit its field (integers are whole numbers within 64 bits); send \(shape)")
            }
            throw APIError.badRequest("invalid_body", DecodingErrorDescription.describe(error))
        } catch {
            throw APIError.badRequest("invalid_body", "\(error)")
        }
    }
}
