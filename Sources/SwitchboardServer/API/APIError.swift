import SwitchboardCore
import SwitchboardHTTP

/// Every refusal the API answers, thrown by endpoints and rendered in one place
/// (``response``) as the error body of design.md §5:
/// `{"error": {"code": "invalid_url", "message": "…"}}`, plus `"errors": [...]` when a change
/// was validated as a whole.
package struct APIError: Error, Sendable {
    /// A 4xx (or 5xx) status.
    package var status: Int
    /// A stable, machine-readable `snake_case` code such as `url_too_long`.
    package var code: String
    /// A sentence for humans: what is wrong and how to fix it.
    package var message: String
    /// Every problem, when there are several (a reload, a batch of rules).
    package var issues: [ConfigIssue]
    /// More header fields (`Allow`, `WWW-Authenticate`, `Cache-Control`).
    package var headers: [HTTPResponse.Header]

    package init(
        status: Int, code: String, message: String, issues: [ConfigIssue] = [], headers: [HTTPResponse.Header] = []
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.issues = issues
        self.headers = headers
    }

    /// A `400`.
    package static func badRequest(_ code: String, _ message: String) -> APIError {
        APIError(status: 400, code: code, message: message)
    }

    /// The response that carries this error.
    package var response: HTTPResponse {
        .json(status: status, body.jsonBytes, headers: headers)
    }

    /// The error body as a JSON value (a batch embeds it per URL).
    package var body: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("error", .object([("code", .string(code)), ("message", .string(message))]))
        ]
        if !issues.isEmpty { members.append(("errors", .array(issues.map(\.json)))) }
        return .object(members)
    }

    /// What the HTTP layer refused by itself (a limit, a malformed request), in the same shape.
    package init(_ refusal: HTTPRefusal) {
        self.init(status: refusal.status, code: refusal.code, message: refusal.message)
    }
}

extension ConfigIssue {
    /// The issue as listed in `"errors"`: `{"file"?, "item"?, "code"?, "message"}`.
    var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let file { members.append(("file", .string(file))) }
        if let item { members.append(("item", .string(item))) }
        if let code { members.append(("code", .string(code))) }
        members.append(("message", .string(message)))
        return .object(members)
    }
}
