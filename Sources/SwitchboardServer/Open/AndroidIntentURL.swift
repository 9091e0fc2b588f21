import SwitchboardCore

/// The `intent://` URL that makes Chrome on Android open an app by a custom-scheme link, or
/// go to a fallback page when the app is not installed:
/// `intent://HOST/PATH?QUERY#Intent;scheme=SCHEME;package=PACKAGE;S.browser_fallback_url=ENCODED;end`.
enum AndroidIntentURL {
    /// The intent for `link` (a custom-scheme URL; its fragment is dropped).
    ///
    /// - Parameters:
    ///   - link: the app's own link, such as `myapp://product/42?ref=qr`.
    ///   - package: the Android package that must open it.
    ///   - fallback: where Chrome goes when the app is not installed (percent-encoded here).
    static func make(link: ParsedURL, package: String, fallback: String?) -> String {
        var text = "intent://" + (link.host ?? "") + link.path
        if let query = link.query { text += "?" + query }
        text += "#Intent;scheme=\(link.scheme);package=\(package);"
        if let fallback { text += "S.browser_fallback_url=\(PercentEncoding.percentEncodedForQueryValue(fallback));" }
        return text + "end"
    }

    /// The custom-scheme link for the routed URL `url`: itself when its scheme is one of
    /// `schemes`, else (an https link of a domain) `SCHEME://` and its path and query, with the
    /// first of `schemes`; `nil` when there is no custom scheme.
    static func appLink(for url: ParsedURL, schemes: [String]) -> ParsedURL? {
        // As a URI (non-ASCII percent-encoded): the intent goes into a `Location` header.
        guard let url = try? ParsedURL.parse(url.uriString) else { return nil }
        if schemes.contains(url.scheme) { return url }
        guard let scheme = schemes.first else { return nil }
        var text = scheme + "://" + url.path.drop { $0 == "/" }
        if let query = url.query { text += "?" + query }
        return try? ParsedURL.parse(text)
    }
}
