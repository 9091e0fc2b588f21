// STUB — the URL helper replaces this file with the real RFC 3986 parser. The API is fixed.

/// An absolute URL split into its RFC 3986 components.
///
/// Parts are kept as written (still percent-encoded), except that the scheme is lowercased,
/// and so is the host of `http`/`https` URLs.
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

    public var description: String { string }

    /// Whether the scheme is `http` or `https`.
    public var isHTTP: Bool { scheme == "http" || scheme == "https" }

    /// Parses an absolute URL.
    /// - Throws: ``URLParseError`` naming what is wrong and where.
    public static func parse(_ text: String) throws(URLParseError) -> ParsedURL {
        throw URLParseError(message: "not implemented", position: 0)
    }
}

/// Why a URL could not be parsed.
public struct URLParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, for a human.
    public let message: String
    /// 0-based index, in characters, of the offending character in the input.
    public let position: Int

    public init(message: String, position: Int) {
        self.message = message
        self.position = position
    }

    public var description: String { "\(message) (at position \(position))" }
}
