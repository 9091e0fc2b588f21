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
    /// The value of `X-Request-Id` (``requestIDHeader``), sent after ``headers`` when set. A slot
    /// of its own rather than an entry of ``headers``: every answer of the API carries one, and
    /// appending to an endpoint's header array would grow it (an allocation per request). Like
    /// a header value, it must not contain CR or LF.
    package var requestID: String?

    /// Creates a response.
    package init(status: Int, headers: [Header] = [], body: [UInt8] = [], isJSON: Bool = false) {
        self.status = status
        self.isJSON = isJSON
        self.headers = headers
        self.body = body
        self.requestID = nil
    }

    /// The name of the header ``requestID`` is sent as.
    package static let requestIDHeader = "X-Request-Id"

    /// The value of the first header field called `name` (ASCII case-insensitive), or `nil`;
    /// the JSON `Content-Type` of an ``isJSON`` response and the ``requestID`` included.
    package func header(_ name: String) -> String? {
        if isJSON, HTTPRequest.fieldNamesEqual(name, "Content-Type") { return Self.jsonContentType }
        if let found = headers.first(where: { HTTPRequest.fieldNamesEqual($0.name, name) }) { return found.value }
        return HTTPRequest.fieldNamesEqual(name, Self.requestIDHeader) ? requestID : nil
    }

    /// Every header field as sent: the JSON `Content-Type` of an ``isJSON`` response first,
    /// then ``headers``, then the ``requestID``.
    package var allHeaders: [Header] {
        let leading: [Header] = isJSON ? [("Content-Type", Self.jsonContentType)] : []
        let trailing: [Header] = requestID.map { [(Self.requestIDHeader, $0)] } ?? []
        return leading + headers + trailing
    }
}
