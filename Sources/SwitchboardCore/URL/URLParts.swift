/// Where the components of a URL are in its UTF-8 bytes, as ``URLScanner/scan()`` found them:
/// byte ranges, nothing copied. The ranges are of the text as written: the scheme and an
/// `http`/`https` host are not lowercased here (``ParsedURL`` holds them lowercased).
struct URLParts: Sendable {
    /// The scheme, before the `:`.
    var scheme: Range<Int>
    /// Whether the scheme is `http` or `https` (in any case).
    var isHTTP: Bool
    /// The userinfo before `@`; `nil` when absent.
    var userinfo: Range<Int>?
    /// The host (IPv6 literals with their brackets); `nil` when the URL has no authority.
    var host: Range<Int>?
    /// The port number; `nil` when absent or empty.
    var port: Int?
    /// The path (may be empty).
    var path: Range<Int>
    /// The query without its `?`; `nil` when absent.
    var query: Range<Int>?
    /// The fragment without its `#`; `nil` when absent.
    var fragment: Range<Int>?
}
