import Logging

/// Turning an ``HTTPResponse`` into a queued libmicrohttpd response: one build for every
/// answer, with the JSON `Content-Type` of an ``HTTPResponse/isJSON`` response added from
/// constant C strings, and one fallback when libmicrohttpd refuses.
extension MicroHTTPDaemonContext {
    /// Queues `response` (with `Connection: close` when asked or while the server drains); if
    /// MHD refuses it, logs why and answers 500 instead.
    func queue(_ response: HTTPResponse, on connection: MicroHTTPDConnection, closeConnection: Bool) -> Step {
        let close = closeConnection || drain.isDraining
        do {
            try enqueue(response, on: connection, closeConnection: close)
            return .proceed
        } catch {
            logger.error("could not send the handler's response: \(error)", metadata: ["status": "\(response.status)"])
        }
        let fallback = refusalResponder(
            HTTPRefusal(status: 500, code: "internal_error", message: "the server built a response it cannot send"))
        do {
            try enqueue(fallback, on: connection, closeConnection: true)
            return .proceed
        } catch {
            logger.error("could not send a 500 either, closing the connection: \(error)")
            return .closeConnection
        }
    }

    /// Builds `response` in libmicrohttpd's form (body copied) and queues it.
    ///
    /// - Throws: ``HTTPServerError`` (`responseRejected`) naming what MHD refused.
    private func enqueue(_ response: HTTPResponse, on connection: MicroHTTPDConnection, closeConnection: Bool)
        throws(HTTPServerError)
    {
        guard (200...599).contains(response.status) else {
            throw HTTPServerError(
                .responseRejected, "status \(response.status) is not a final HTTP status",
                context: "HTTPResponse.status", fix: "use a status in 200...599")
        }
        guard let built = MicroHTTPDResponse(copying: response.body) else {
            throw HTTPServerError(
                .responseRejected, "libmicrohttpd could not allocate a response of \(response.body.count) bytes",
                context: "MHD_create_response_from_buffer")
        }
        // MHD keeps its own reference once the response is queued.
        defer { built.release() }
        try addHeaders(of: response, to: built, closeConnection: closeConnection)
        guard connection.queue(built, status: response.status) else {
            throw HTTPServerError(
                .responseRejected, "libmicrohttpd refused to queue a \(response.status) response",
                context: "MHD_queue_response")
        }
    }

    /// Adds `response`'s headers (and `Connection: close` when asked) to an MHD response.
    private func addHeaders(of response: HTTPResponse, to built: MicroHTTPDResponse, closeConnection: Bool)
        throws(HTTPServerError)
    {
        if response.isJSON, !built.addHeader("Content-Type", HTTPResponse.jsonContentTypeText) {
            throw HTTPServerError(
                .responseRejected, "libmicrohttpd refused the JSON Content-Type", context: "MHD_add_response_header")
        }
        for header in response.headers {
            if HTTPRequest.fieldNamesEqual(header.name, "Content-Length")
                || HTTPRequest.fieldNamesEqual(header.name, "Transfer-Encoding")
            {
                continue  // MHD frames the body itself.
            }
            try Self.add(header, to: built)
        }
        if let requestID = response.requestID { try Self.add((HTTPResponse.requestIDHeader, requestID), to: built) }
        if closeConnection, !built.addHeader("Connection", "close") {
            throw HTTPServerError(
                .responseRejected, "libmicrohttpd refused \"Connection: close\"", context: "MHD_add_response_header")
        }
    }

    /// Adds one header field, checked first.
    private static func add(_ header: HTTPResponse.Header, to built: MicroHTTPDResponse) throws(HTTPServerError) {
        try checkHeader(header)
        guard built.addHeader(name: header.name, value: header.value) else {
            throw HTTPServerError(
                .responseRejected, "libmicrohttpd refused the header \"\(header.name)\"",
                context: "MHD_add_response_header", fix: "send a valid header name and value")
        }
    }

    /// A header name must be a token and a value must not contain CR, LF or NUL (a NUL would
    /// silently cut the C string; CR/LF would split the header).
    private static func checkHeader(_ header: HTTPResponse.Header) throws(HTTPServerError) {
        guard !header.name.isEmpty, allBytes(of: header.name, satisfy: HTTPToken.isTokenByte) else {
            throw HTTPServerError(
                .responseRejected, "the header name \"\(header.name)\" is not an HTTP token",
                context: "HTTPResponse.headers", fix: "use letters, digits and -")
        }
        guard allBytes(of: header.value, satisfy: { $0 != 0 && $0 != 10 && $0 != 13 }) else {
            throw HTTPServerError(
                .responseRejected, "the value of header \"\(header.name)\" contains CR, LF or NUL",
                context: "HTTPResponse.headers", fix: "remove control characters from the value")
        }
    }

    /// Whether every UTF-8 byte of `text` passes `test`: a loop over the string's contiguous
    /// storage when it has one, because every header of every response is checked.
    private static func allBytes(of text: String, satisfy test: (UInt8) -> Bool) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(test) } ?? text.utf8.allSatisfy(test)
    }
}
