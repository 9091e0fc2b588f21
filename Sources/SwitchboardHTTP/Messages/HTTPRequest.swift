/// One complete HTTP request, as the client sent it, handed to the server's handler.
///
/// The request target is kept raw: `path` and `query` are exactly the bytes of the request
/// line (still percent-encoded), so repeated query keys, `+` and the original encoding
/// survive. Decoding is the endpoint's business.
///
/// ```swift
/// // GET /resolve?url=myapp%3A%2F%2Fproduct%2F42&a=1&a=2 HTTP/1.1
/// request.method              // "GET"
/// request.path                // "/resolve"
/// request.query               // "url=myapp%3A%2F%2Fproduct%2F42&a=1&a=2"
/// request.header("host")      // "127.0.0.1:8080"
/// ```
package struct HTTPRequest: Sendable {
    /// One request header field as received (name case preserved, value trimmed by MHD).
    package typealias Header = (name: String, value: String)

    /// The method token, e.g. `GET` (case as sent; HTTP methods are case-sensitive).
    package var method: String
    /// The request target up to the first `?`, raw (percent-encoded, not normalised).
    package var path: String
    /// Everything after the first `?`, raw and exactly as sent; `nil` when there is no `?`
    /// (an empty string when the target ends with `?`).
    package var query: String?
    /// All header fields in the order received; repeated fields appear repeatedly.
    package var fields: HTTPHeaderFields
    /// ``fields`` as names and values (made on each read: ``header(_:)`` reads one field
    /// without making the others).
    package var headers: [Header] {
        get { fields.all }
        set { fields = HTTPHeaderFields(newValue) }
    }
    /// The request body (de-chunked), at most the configured maximum body size.
    package var body: [UInt8]
    /// The peer's numeric IP address (`127.0.0.1`, `::1`), when known.
    package var remoteAddress: String?

    /// Creates a request (the server builds these; tests and endpoints may too).
    package init(
        method: String,
        path: String,
        query: String? = nil,
        headers: [Header] = [],
        body: [UInt8] = [],
        remoteAddress: String? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.fields = HTTPHeaderFields(headers)
        self.body = body
        self.remoteAddress = remoteAddress
    }

    /// A request whose fields are already collected (the server's assembler).
    init(method: String, path: String, query: String?, fields: HTTPHeaderFields, body: [UInt8], remoteAddress: String?) {
        self.method = method
        self.path = path
        self.query = query
        self.fields = fields
        self.body = body
        self.remoteAddress = remoteAddress
    }

    /// The value of the first header field called `name`, compared case-insensitively
    /// (ASCII), or `nil`.
    ///
    /// - Parameter name: a field name such as `"Content-Type"`.
    /// - Returns: the first matching value; use ``headers(named:)`` for repeated fields.
    package func header(_ name: String) -> String? {
        fields.first(named: name)
    }

    /// The values of every header field called `name` (case-insensitive), in order.
    package func headers(named name: String) -> [String] {
        fields.all(named: name)
    }

    /// The raw request target: `path`, then `?query` when there is a query.
    package var target: String {
        if let query { return path + "?" + query }
        return path
    }

    /// ASCII case-insensitive comparison of two field names (RFC 9110 §5.1).
    static func fieldNamesEqual(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in HTTPHeaderFields.namesEqual(UnsafeRawBufferPointer(left), UnsafeRawBufferPointer(right)) }
        }
    }
}
