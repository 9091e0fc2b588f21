import Foundation
import SwitchboardCore
import SwitchboardServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A client of the documented admin HTTP API (docs/http-api.md): one request at a time, the
/// token as a bearer token, `If-Match` with a version when a write must not overwrite a change
/// it has not seen. Bodies are read as the server's own values (``JSONValue``, and
/// ``SwitchboardServer/APIError`` for a refusal).
struct AdminClient: Sendable {
    /// An answer of the API.
    struct Answer: Sendable {
        /// The HTTP status.
        var status: Int
        /// The admin version its `ETag` names, when it has one.
        var version: Int?
        /// The JSON body (`.null` for none).
        var body: JSONValue
    }

    /// The server's base URL, without a trailing slash.
    let server: URL
    let token: String

    /// Sends `method path` with `body`, and `If-Match: "ifMatch"` when given.
    ///
    /// - Throws: ``AdminClientError``: `unreachable` when no answer came, `refused` for a
    ///   status of 400 or more (the API's error body), `unexpectedAnswer` for a body that is not JSON.
    func send(_ method: String, _ path: String, body: JSONValue? = nil, ifMatch: Int? = nil) async throws(AdminClientError)
        -> Answer
    {
        guard let url = URL(string: server.absoluteString + path) else {
            throw .usage("'\(path)' does not make a URL with the server \(server.absoluteString)")
        }
        var request = URLRequest(url: url, timeoutInterval: HTTPClient.timeout)
        request.httpMethod = method
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let ifMatch { request.setValue(AdminClient.etag(ifMatch), forHTTPHeaderField: "If-Match") }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(body.jsonText.utf8)
        }
        let data: Data
        let http: HTTPURLResponse
        do {
            (data, http) = try await HTTPClient.send(request)
        } catch {
            throw .unreachable(server: server.absoluteString, reason: error.localizedDescription)
        }
        let text = String(decoding: data, as: UTF8.self)
        let json: JSONValue
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            json = .null
        } else {
            do {
                json = try Self.parse(text)
            } catch {
                throw .unexpectedAnswer("\(http.statusCode) with a body that is not JSON: \(text.prefix(200))")
            }
        }
        guard http.statusCode < 400 else {
            throw .refused(
                APIError(status: http.statusCode, body: json)
                    ?? APIError(status: http.statusCode, code: "http_\(http.statusCode)", message: String(text.prefix(500))))
        }
        let version = (http.value(forHTTPHeaderField: "ETag")).flatMap(Self.version(ofETag:))
        return Answer(status: http.statusCode, version: version, body: json)
    }

    /// JSON text as a value, with the key order of its objects kept (Yams reads JSON as the
    /// YAML it is, and keeps the order a route's target was given in).
    static func parse(_ text: String) throws -> JSONValue {
        try ConfigDirectory.decodeYAML(JSONValue.self, from: text)
    }

    /// `"3"` as an `If-Match` value.
    static func etag(_ version: Int) -> String { "\"\(version)\"" }

    /// The version of an `ETag` such as `"3"` (or `W/"3"`).
    static func version(ofETag etag: String) -> Int? {
        var value = etag.trimmingCharacters(in: .whitespaces)
        if value.hasPrefix("W/") { value.removeFirst(2) }
        return Int(value.trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
    }
}
