/// Decides which URLs are app links (design.md §3): a custom scheme listed in `schemes`, or an
/// `http`/`https` URL whose host is listed in `domains`. Only app links match path-only
/// patterns; other URLs match only patterns that name their scheme (and host).
public struct AppLinkPolicy: Sendable, Hashable {
    /// Custom schemes whose URLs are app links (`schemes` in switchboard.yaml).
    public let schemes: Set<String>
    /// Hosts whose `http(s)` URLs are app links (`domains` in switchboard.yaml).
    public let domains: Set<String>

    /// - Parameters: schemes and domains, compared lowercased.
    public init(schemes: some Sequence<String>, domains: some Sequence<String>) {
        self.schemes = Set(schemes.map { $0.lowercased() })
        self.domains = Set(domains.map { $0.lowercased() })
    }

    /// Whether `url` is an app link.
    public func isAppLink(_ url: ParsedURL) -> Bool {
        if url.isHTTP {
            guard let host = url.host else { return false }
            return domains.contains(host)
        }
        return schemes.contains(url.scheme)
    }

    /// Whether the URL whose UTF-8 is `bytes`, with components `parts`, is an app link: the
    /// same answer as ``isAppLink(_:)`` on its ``ParsedURL``, without making one.
    func isAppLink(_ parts: URLParts, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let scanner = URLScanner(bytes: bytes)
        // A few schemes or domains are compared byte by byte: hashing a string made of them
        // costs more (and a host of 16 bytes or more would be a heap string); many go through
        // the set.
        guard parts.isHTTP else {
            guard !schemes.isEmpty else { return false }
            guard schemes.count <= Self.byteComparisonLimit else {
                return schemes.contains(scanner.makeString(parts.scheme, lowercasing: true))
            }
            let schemeBytes = UnsafeBufferPointer(rebasing: bytes[parts.scheme])
            return schemes.contains { Self.equalsLowercased($0, schemeBytes) }
        }
        guard let host = parts.host, !domains.isEmpty else { return false }
        let hostBytes = UnsafeBufferPointer(rebasing: bytes[host])
        guard domains.count <= Self.byteComparisonLimit, !HostLowercasing.needsUnicode(hostBytes) else {
            return domains.contains(scanner.makeString(host, lowercasing: true))
        }
        return domains.contains { Self.equalsLowercased($0, hostBytes) }
    }

    /// The most schemes or domains compared byte by byte rather than through their set.
    private static let byteComparisonLimit = 8

    /// Whether `bytes`, a scheme or an ASCII `http`/`https` host, lowercased as ``ParsedURL``
    /// lowercases them (ASCII letters, except the hex digits of `%HH` escapes, which a scheme
    /// cannot have), are `expected`.
    private static func equalsLowercased(_ expected: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard expected.utf8.count == bytes.count else { return false }
        var escapeDigits = 0
        var index = 0
        for expectedByte in expected.utf8 {
            var byte = bytes[index]
            if escapeDigits > 0 {
                escapeDigits -= 1
            } else {
                escapeDigits = byte == UInt8(ascii: "%") ? 2 : 0
                if byte &- UInt8(ascii: "A") < 26 { byte |= 0x20 }
            }
            guard byte == expectedByte else { return false }
            index += 1
        }
        return true
    }
}
