/// An absolute URL split into its RFC 3986 components.
///
/// Parts are kept as written (still percent-encoded), except that the scheme is lowercased,
/// and so is the host of `http`/`https` URLs. Non-ASCII characters are accepted wherever a
/// percent-escape is (IRIs, RFC 3987); see ``parse(_:)`` for what is refused.
///
/// ```swift
/// let url = try ParsedURL.parse("MyApp://Product/42?ref=mail#top")
/// url.scheme   // "myapp"
/// url.host     // "Product" (custom-scheme hosts keep their case)
/// url.path     // "/42"
/// url.query    // "ref=mail"
/// url.fragment // "top"
/// ```
public struct ParsedURL: Sendable, Hashable, CustomStringConvertible {
    /// The URL exactly as given to ``parse(_:)``.
    public let string: String
    /// The scheme, lowercased (`myapp`, `https`).
    public let scheme: String
    /// The userinfo before `@`, percent-encoded as written; `nil` when absent.
    public let userinfo: String?
    /// The host, percent-encoded as written (IPv6 literals keep their brackets); lowercased
    /// for `http`/`https`. `nil` when the URL has no authority.
    public let host: String?
    /// The port number; `nil` when absent or empty.
    public let port: Int?
    /// The path, percent-encoded as written (may be empty).
    public let path: String
    /// The query without its `?`; `nil` when absent.
    public let query: String?
    /// The fragment without its `#`; `nil` when absent.
    public let fragment: String?

    /// The URL exactly as given to ``parse(_:)``.
    public var description: String { string }

    /// Whether the scheme is `http` or `https`.
    public var isHTTP: Bool { scheme == "http" || scheme == "https" }

    /// Parses an absolute URL (RFC 3986 `absolute-URI` with an optional fragment).
    ///
    /// Accepted: `scheme ":" [ "//" [ userinfo "@" ] host [ ":" port ] ] path [ "?" query ]
    /// [ "#" fragment ]`, where the host is a registered name, an IPv4 address, or a bracketed
    /// IPv6 or IPvFuture literal, and where non-ASCII characters may appear wherever a `%HH`
    /// escape may.
    ///
    /// Refused: an empty string; a relative reference (no scheme); spaces; control characters
    /// (C0, DEL, C1); `"`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}`; a second `#`; `[` or `]`
    /// outside an IPv6 host; a `%` not followed by two hex digits; a port that is not digits or
    /// is above 65535; an `http`/`https` URL without a host.
    ///
    /// - Parameter text: The URL.
    /// - Returns: The URL's components.
    /// - Throws: ``URLParseError`` naming what is wrong, with the 0-based character position of
    ///   the offending character.
    public static func parse(_ text: String) throws(URLParseError) -> ParsedURL {
        var utf8 = text
        let result = utf8.withUTF8 { bytes -> Result<ParsedURL, URLSyntaxError> in
            do throws(URLSyntaxError) {
                return .success(try URLScanner(bytes: bytes).parse(text))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let url):
            return url
        case .failure(let error):
            throw error.parseError(in: text)
        }
    }
}
