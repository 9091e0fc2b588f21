/// A request the HTTP layer refuses by itself, before any handler sees it: a target or body
/// over its limit, a malformed target or framing, a missing `Host`, a request that did not
/// arrive in time, a connection over the connection limits.
///
/// The HTTP layer knows no body format; the server's `refusalResponder` turns a refusal into
/// the response the application wants (Switchboard's JSON error body). The connection is
/// closed after it.
package struct HTTPRefusal: Error, Sendable, Equatable {
    /// `400`, `408`, `413`, `414`, `501`, or `503` (over the connection limits).
    package var status: Int
    /// A stable `snake_case` code: `bad_request`, `request_timeout`, `body_too_large`,
    /// `url_too_long`, `not_implemented`, `too_many_connections`.
    package var code: String
    /// A sentence for humans; it never repeats the request's bytes.
    package var message: String
    /// When set, the answer carries `Retry-After` with this many seconds (the server adds it
    /// to whatever the refusal responder returns).
    package var retryAfterSeconds: Int?

    package init(status: Int, code: String, message: String, retryAfterSeconds: Int? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.retryAfterSeconds = retryAfterSeconds
    }

    /// `text/plain` `code: message`, for servers that give no responder of their own.
    package static func plainTextResponse(_ refusal: HTTPRefusal) -> HTTPResponse {
        .text(status: refusal.status, "\(refusal.code): \(refusal.message)\n")
    }
}
