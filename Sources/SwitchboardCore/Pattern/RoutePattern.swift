/// A route pattern, parsed: an optional scheme/host restriction and a list of segments.
///
/// ```
/// /product/:id                          any accepted app link
/// myapp://product/:id<int>              only the myapp scheme (the host is the first segment)
/// https://shop.example.com/p/*rest      only https links to that host
/// /search(/:query)(/page/:n)            optional groups: every combination, longest first
/// ```
/// See `SwitchboardCore.docc/Patterns.md` and docs/patterns.md for the full grammar and the priority rules.
public struct RoutePattern: Sendable, Hashable, CustomStringConvertible {
    /// The pattern exactly as registered (with its optional groups).
    public let text: String
    /// The required scheme, lowercased; `nil` for a path-only pattern.
    public let scheme: String?
    /// The required host (`http`/`https` patterns only), lowercased, with `:port` if given.
    public let host: String?
    /// The segments of this expansion.
    public let segments: [PatternSegment]

    package init(text: String, scheme: String?, host: String?, segments: [PatternSegment]) {
        self.text = text
        self.scheme = scheme
        self.host = host
        self.segments = segments
    }

    public var description: String { text }

    /// The names of the values this pattern captures, in segment order.
    public var parameterNames: [String] {
        segments.compactMap { segment in
            switch segment {
            case .literal: nil
            case .parameter(let name, _): name
            case .catchAll(let name): name
            }
        }
    }

    /// How narrow the scheme/host restriction is, which decides between patterns with the same
    /// path (design.md §3): a host with a port (3) > a host (2) > a scheme (1) > none (0). A
    /// host with a port accepts a subset of the URLs the host alone accepts (one port, against
    /// any), so it is tried first.
    package static func specificity(scheme: String?, host: String?) -> Int {
        guard let host else { return scheme == nil ? 0 : 1 }
        return hostNamesPort(host) ? 3 : 2
    }

    /// Whether a pattern's host (`shop.example.com:8443`, `[::1]:8443`) carries a port: a
    /// colon after the last `]`, so that an IPv6 literal's own colons do not count.
    package static func hostNamesPort(_ host: String) -> Bool {
        guard let colon = host.utf8.lastIndex(of: UInt8(ascii: ":")) else { return false }
        guard let bracket = host.utf8.lastIndex(of: UInt8(ascii: "]")) else { return true }
        return colon > bracket
    }

    /// Parses a pattern and expands its optional groups.
    ///
    /// - Parameter text: the pattern as written in a route file.
    /// - Returns: every expansion, most segments first, and among equal counts the one that
    ///   keeps an earlier group first (a pattern without groups gives one).
    /// - Throws: ``PatternError`` naming what is wrong and at which position.
    public static func parse(_ text: String) throws(PatternError) -> [RoutePattern] {
        if let plain = PatternParser.parsePlainPath(text) { return [plain] }
        return try PatternParser(text).parse()
    }
}
