import SwitchboardHTTP

/// The header fields every console answer carries. The policy allows only the console's own
/// files: no inline script or style, no other origin, no plugin, no framing. Route ids,
/// targets and URLs shown by the console come from admins and from route files, so the
/// policy is a second wall behind the scripts' rule of writing data only as text.
enum ConsoleSecurityHeaders {
    /// The `Content-Security-Policy` of every console answer.
    static let contentSecurityPolicy = [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "connect-src 'self'",
        "font-src 'none'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    ].joined(separator: "; ")

    /// The fields, for `contentType`.
    static func headers(contentType: String) -> [HTTPResponse.Header] {
        [
            ("Content-Type", contentType),
            ("Content-Security-Policy", contentSecurityPolicy),
            ("X-Content-Type-Options", "nosniff"),
            ("X-Frame-Options", "DENY"),
            ("Referrer-Policy", "no-referrer"),
            // A new binary brings new files under the same names: ask before reusing a copy.
            ("Cache-Control", "no-cache"),
        ]
    }
}
