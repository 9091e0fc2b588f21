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
}
