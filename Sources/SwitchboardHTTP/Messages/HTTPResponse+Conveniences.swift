extension HTTPResponse {
    /// The `Content-Type` of JSON bodies.
    package static let jsonContentType = jsonContentTypeText.description
    /// ``jsonContentType`` as a constant C string, for the server to hand to libmicrohttpd as is.
    static let jsonContentTypeText: StaticString = "application/json; charset=utf-8"
    /// The `Content-Type` of plain-text bodies.
    package static let textContentType = "text/plain; charset=utf-8"

    /// A JSON response from already-encoded bytes (``isJSON``: the server adds the
    /// `Content-Type`).
    ///
    /// - Parameters:
    ///   - status: the status code (default 200).
    ///   - body: UTF-8 JSON text; it is not validated. It may be the body buffer the server
    ///     lent the handler.
    ///   - headers: extra header fields, sent after `Content-Type`.
    package static func json(status: Int = 200, _ body: [UInt8], headers: [Header] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers, body: body, isJSON: true)
    }

    /// A JSON response from a string of JSON text.
    ///
    /// ```swift
    /// .json(#"{"status":"ok"}"#)
    /// ```
    package static func json(status: Int = 200, _ body: String, headers: [Header] = []) -> HTTPResponse {
        json(status: status, Array(body.utf8), headers: headers)
    }

    /// A `text/plain; charset=utf-8` response (e.g. Prometheus metrics).
    ///
    /// - Parameter contentType: override for text formats with their own media type.
    package static func text(
        status: Int = 200,
        _ body: String,
        contentType: String = textContentType,
        headers: [Header] = []
    ) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", contentType)] + headers, body: Array(body.utf8))
    }
}
