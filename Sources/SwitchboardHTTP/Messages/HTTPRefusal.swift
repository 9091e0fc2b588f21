/// A request the HTTP layer refuses by itself, before any handler sees it: a target or body
/// over its limit, a malformed target, a missing `Host`.
///
/// The HTTP layer knows no body format; the server's `refusalResponder` turns a refusal into
/// the response the application wants (Switchboard's JSON error body). The connection is
/// closed after it.
package struct HTTPRefusal: Error, Sendable, Equatable {
    /// A 4xx status: `400`, `413`, `414`.
    package var status: Int
    /// A stable `snake_case` code: `bad_request`, `body_too_large`, `url_too_long`.
    package var code: String
    /// A sentence for humans; it never repeats the request's bytes.
    package var message: String

    package init(status: Int, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// `text/plain` `code: message`, for servers that give no responder of their own.
    package static func plainTextResponse(_ refusal: HTTPRefusal) -> HTTPResponse {
        .text(status: refusal.status, "\(refusal.code): \(refusal.message)\n")
    }
}
