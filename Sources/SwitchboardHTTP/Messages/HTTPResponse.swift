/// A complete HTTP response returned by the server's handler: a plain value.
///
/// The server adds `Content-Length` and `Date` itself; a `Content-Length` or
/// `Transfer-Encoding` field in ``headers`` is ignored. Build responses with the
/// conveniences in `HTTPResponse+Conveniences.swift`:
///
/// ```swift
/// return .json(#"{"status":"ok"}"#)
/// return .error(status: 400, code: "invalid_url", message: "missing query parameter url")
/// ```
///
/// A handler may write its body into the body buffer the server lends it and answer with that
/// buffer as ``body``: the two then share their storage, the server copies the bytes out when
/// it sends them, and the buffer is again the storage's only owner for the thread's next
/// request (see ``HTTPServer``).
package struct HTTPResponse: Sendable {
    /// One response header field.
    package typealias Header = (name: String, value: String)

    /// The status code, 200...599 (anything else is answered with a 500 and logged).
    package var status: Int
    /// Whether the body is JSON: the server sends `Content-Type: application/json;
    /// charset=utf-8` (``jsonContentType``) before ``headers``, from a constant it neither
    /// checks nor copies. `.json(…)` sets it.
    package var isJSON: Bool
    /// Header fields in the order they are sent (after the JSON `Content-Type` when
    /// ``isJSON``). Names and values must not contain CR or LF.
    package var headers: [Header]
    /// The body bytes (sent with `Content-Length`; omitted for `HEAD` by MHD).
    package var body: [UInt8]

    /// Creates a response.
    package init(status: Int, headers: [Header] = [], body: [UInt8] = [], isJSON: Bool = false) {
        self.status = status
        self.isJSON = isJSON
        self.headers = headers
        self.body = body
    }

    /// The value of the first header field called `name` (ASCII case-insensitive), or `nil`;
    /// the JSON `Content-Type` of an ``isJSON`` response included.
    package func header(_ name: String) -> String? {
        if isJSON, HTTPRequest.fieldNamesEqual(name, "Content-Type") { return Self.jsonContentType }
        return headers.first { HTTPRequest.fieldNamesEqual($0.name, name) }?.value
    }

    /// Every header field as sent: the JSON `Content-Type` of an ``isJSON`` response first,
    /// then ``headers``.
    package var allHeaders: [Header] {
        isJSON ? [("Content-Type", Self.jsonContentType)] + headers : headers
    }
}
