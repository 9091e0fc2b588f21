extension HTTPResponse {
    /// The whole response as HTTP/1.1 bytes, with `Content-Length` and `Connection: close`:
    /// for the few answers written straight to a socket, outside libmicrohttpd (a request
    /// that did not arrive in time). Header fields that would break the framing (CR, LF, NUL)
    /// are left out.
    package var closingWireBytes: [UInt8] {
        var head = "HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\n"
        for header in allHeaders where !Self.isFraming(header.name) {
            guard !(header.name + header.value).utf8.contains(where: { $0 == 0 || $0 == 10 || $0 == 13 }) else {
                continue
            }
            head += "\(header.name): \(header.value)\r\n"
        }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + body
    }

    private static func isFraming(_ name: String) -> Bool {
        HTTPRequest.fieldNamesEqual(name, "Content-Length") || HTTPRequest.fieldNamesEqual(name, "Transfer-Encoding")
            || HTTPRequest.fieldNamesEqual(name, "Connection")
    }

    /// The reason phrase of the statuses the HTTP layer writes itself (the phrase carries no
    /// meaning, RFC 9112 §4).
    private static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 408: "Request Timeout"
        case 503: "Service Unavailable"
        default: "Error"
        }
    }
}
