import Foundation
import SwitchboardHTTP

/// Cross-origin access to the endpoints that web pages call from JavaScript: `/resolve`,
/// `/open` and the `.well-known` files (`cors_allowed_origins`, docs/operations.md "CORS").
///
/// A request whose `Origin` is allowed gets `Access-Control-Allow-Origin` with that origin
/// (and `Vary: Origin`); any other request gets no `Access-Control-*` header at all, so the
/// browser keeps the answer from the page. A preflight (`OPTIONS` with
/// `Access-Control-Request-Method`) is answered `204` with the methods and headers allowed.
/// The admin API, metrics and probes are never cross-origin.
struct CORSPolicy: Sendable {
    /// The paths that take part, with the methods each allows.
    static let methods: [String: String] = [
        "/resolve": "GET, POST",
        "/open": "GET",
        "/.well-known/apple-app-site-association": "GET",
        "/.well-known/assetlinks.json": "GET",
    ]
    /// Request headers a page may send: the body's type and the conditional-rule headers.
    static let allowedHeaders = "Content-Type, X-App-Platform, X-App-Version, X-Device-Id"
    /// How long a browser may keep a preflight answer, in seconds.
    static let maxAge = "600"

    /// The allowed origins (`*` for any), from the running snapshot's settings.
    let allowedOrigins: [String]

    /// Whether `text` is an origin: `scheme://host[:port]`, nothing after.
    static func isOrigin(_ text: String) -> Bool {
        guard let separator = text.range(of: "://") else { return false }
        let scheme = text[..<separator.lowerBound]
        let authority = text[separator.upperBound...]
        return !scheme.isEmpty && scheme.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
            && !authority.isEmpty && !authority.contains { "/?#@ ".contains($0) }
    }

    /// The origin to allow for `request`, if its `Origin` is allowed on its path.
    private func allowedOrigin(_ request: HTTPRequest) -> String? {
        // Cheapest test first: by default no origin is allowed, and every request passes here.
        guard !allowedOrigins.isEmpty, Self.methods[request.path] != nil, let origin = request.header("Origin") else {
            return nil
        }
        if allowedOrigins.contains("*") { return "*" }
        let lowered = origin.lowercased()
        return allowedOrigins.contains { $0.lowercased() == lowered } ? origin : nil
    }

    /// The answer to a preflight `OPTIONS` on a CORS path; `nil` for any other request.
    func preflight(_ request: HTTPRequest) -> HTTPResponse? {
        guard request.method == "OPTIONS", let methods = Self.methods[request.path] else { return nil }
        var headers: [HTTPResponse.Header] = [("Allow", methods + ", OPTIONS")]
        if let origin = allowedOrigin(request) {
            headers += [
                ("Access-Control-Allow-Origin", origin),
                ("Access-Control-Allow-Methods", methods),
                ("Access-Control-Allow-Headers", Self.allowedHeaders),
                ("Access-Control-Max-Age", Self.maxAge),
            ]
            if origin != "*" { headers.append(("Vary", "Origin")) }
        }
        return HTTPResponse(status: 204, headers: headers)
    }

    /// `response` with the headers that let the page of an allowed origin read it.
    func decorate(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        guard let origin = allowedOrigin(request) else { return response }
        var decorated = response
        decorated.headers.append(("Access-Control-Allow-Origin", origin))
        if origin != "*" { decorated.headers.append(("Vary", "Origin")) }
        return decorated
    }
}
