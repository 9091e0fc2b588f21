/// A complete HTTP response returned by the server's handler.
///
/// The server adds `Content-Length` and `Date` itself; a `Content-Length` or
/// `Transfer-Encoding` field in ``headers`` is ignored. Build responses with the
/// conveniences in `HTTPResponse+Conveniences.swift`:
///
/// ```swift
/// return .json(#"{"status":"ok"}"#)
/// return .error(status: 400, code: "invalid_url", message: "missing query parameter url")
/// ```
package struct HTTPResponse: Sendable {
    /// One response header field.
    package typealias Header = (name: String, value: String)

    /// The status code, 200...599 (anything else is answered with a 500 and logged).
    package var status: Int
    /// Header fields in the order they are sent. Names and values must not contain CR or LF.
    package var headers: [Header]
    /// The body bytes (sent with `Content-Length`; omitted for `HEAD` by MHD).
    package var body: [UInt8]
    /// Set on a response that is sent again and again unchanged (a cached answer): the server
    /// keeps its libmicrohttpd form there, built on the first send and reused after. Every
    /// response given the same slot must be identical.
    package var reuseSlot: ResponseReuseSlot?

    /// Creates a response.
    package init(status: Int, headers: [Header] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the first header field called `name` (ASCII case-insensitive), or `nil`.
    package func header(_ name: String) -> String? {
        headers.first { HTTPRequest.fieldNamesEqual($0.name, name) }?.value
    }
}
