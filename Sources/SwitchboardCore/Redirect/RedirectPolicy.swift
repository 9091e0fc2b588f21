/// Where `GET /open` may send a browser: the open-redirect guard of redirect mode.
///
/// A location is allowed only when ``ParsedURL`` parses it and then:
/// - its scheme is `https`, `http` (only with `allowHTTP`), or one of the accepted app schemes;
/// - for `http`/`https`: it has no userinfo (`user@`), and its parsed host is listed exactly in
///   `redirect_allow`, or ends with `.suffix` for a listed `*.suffix` (subdomains only, never
///   the suffix itself). A host with a `%` escape or a trailing dot is refused.
///
/// Hosts are compared after parsing, never as string prefixes of the URL, so `//evil.com`,
/// `https://trusted.com@evil.com`, `https:/\evil.com` and `https://trusted.com.evil.com` are
/// all refused.
///
/// ```swift
/// let policy = RedirectPolicy(allowedHosts: ["m.example.com", "*.cdn.example.com"], allowHTTP: false, appSchemes: ["myapp"])
/// policy.allows("https://m.example.com/p/1")          // true
/// policy.allows("https://m.example.com.evil.com/")    // false
/// ```
public struct RedirectPolicy: Sendable, Hashable {
    /// Hosts allowed exactly, lowercased.
    public let exactHosts: Set<String>
    /// Suffixes from `*.suffix` entries, lowercased, without the `*.`.
    public let subdomainSuffixes: [String]
    /// Whether `http` locations are allowed.
    public let allowHTTP: Bool
    /// Custom app schemes that may be redirected to, lowercased.
    public let appSchemes: Set<String>

    /// - Parameters:
    ///   - allowedHosts: `redirect_allow` entries (already checked with ``entryProblem(_:)``).
    ///   - allowHTTP: `redirect_allow_http`.
    ///   - appSchemes: the accepted custom schemes (`schemes`).
    public init(allowedHosts: [String], allowHTTP: Bool, appSchemes: some Sequence<String>) {
        var exact: Set<String> = []
        var suffixes: [String] = []
        for entry in allowedHosts.map({ $0.lowercased() }) {
            if entry.hasPrefix("*.") {
                suffixes.append(String(entry.dropFirst(2)))
            } else {
                exact.insert(entry)
            }
        }
        exactHosts = exact
        subdomainSuffixes = suffixes
        self.allowHTTP = allowHTTP
        self.appSchemes = Set(appSchemes.map { $0.lowercased() })
    }

    /// Why a `redirect_allow` entry is unusable, or `nil` when it is fine: an entry is a host
    /// name or IP address (letters, digits, `-`, `.`, `:`, `[`, `]`; no trailing dot), or
    /// `*.` followed by such a name containing no `*`.
    public static func entryProblem(_ entry: String) -> String? {
        let name = entry.hasPrefix("*.") ? String(entry.dropFirst(2)) : entry
        guard !name.isEmpty else { return "'\(entry)' is empty; list a host such as m.example.com" }
        guard name.utf8.allSatisfy(isHostByte) else {
            return "'\(entry)' is not a host name: list hosts only (no scheme, path, port, user@ or spaces), "
                + "and '*.example.com' for subdomains"
        }
        guard !name.contains(":") || (name.hasPrefix("[") && name.hasSuffix("]")) else {
            return "'\(entry)' has a port; list the host alone (any port of an allowed host is allowed)"
        }
        guard !name.hasPrefix("."), !name.hasSuffix("."), !name.contains("..") else {
            return "'\(entry)' has an empty label (a leading, trailing or double dot)"
        }
        return nil
    }

    /// The parsed location when redirecting to `location` is allowed, else `nil`.
    public func allowedLocation(_ location: String) -> ParsedURL? {
        guard let url = try? ParsedURL.parse(location) else { return nil }
        switch url.scheme {
        case "https":
            break
        case "http":
            guard allowHTTP else { return nil }
        default:
            return appSchemes.contains(url.scheme) ? url : nil
        }
        guard url.userinfo == nil, let host = url.host, isAllowedHost(host) else { return nil }
        return url
    }

    /// Whether redirecting to `location` is allowed.
    public func allows(_ location: String) -> Bool {
        allowedLocation(location) != nil
    }

    /// Whether a parsed `http(s)` host is listed.
    func isAllowedHost(_ host: String) -> Bool {
        // `%` escapes, IPvFuture tricks and trailing dots never match a listed name.
        guard !host.isEmpty, host.utf8.allSatisfy(Self.isHostByte), !host.hasSuffix(".") else { return false }
        let host = host.lowercased()
        if exactHosts.contains(host) { return true }
        return subdomainSuffixes.contains { suffix in
            host.utf8.count > suffix.utf8.count + 1 && host.hasSuffix("." + suffix)
        }
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: ":"),
            UInt8(ascii: "["), UInt8(ascii: "]"):
            true
        default:
            false
        }
    }
}
