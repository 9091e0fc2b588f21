/// What the traffic sample keeps of a URL: the scheme, host and path as sent, the query and
/// fragment with each value either kept or replaced by its shape (README "Traffic sample"):
///
/// - a **secret** key (``isSecret(_:)``: tokens, keys, signatures, passwords, sessions, auth,
///   codes) never keeps its value, whatever `keep_query_values` says;
/// - a key listed in `keep_query_values` keeps its value;
/// - an **identifying** key (``isIdentifying(_:)``: `utm_*`, click ids such as `gclid`,
///   keys ending in `id`, `email`, `phone`) loses its value;
/// - any other value is kept unless it is longer than ``longestKeptValue`` bytes or holds an
///   `@` (an e-mail address, an embedded URL or token);
/// - user info before the host (`user:password@`) is dropped.
///
/// A value that is not kept becomes its shape: each ASCII digit `0`, each ASCII letter `x`
/// (`X` when upper case), each percent escape or other non-ASCII character `_`, punctuation as
/// it was: `id=AB-1234` is kept as `id=XX-0000`, so that rules and constraints that look at
/// the form of a value (`\d+`) still see it, while the value is gone.
package struct SampleRedaction: Sendable {
    /// Values longer than this (in bytes, as sent) are not kept, whatever their key: long
    /// opaque values are tokens or personal data more often than routing input.
    package static let longestKeptValue = 32

    /// The keys of `keep_query_values`, normalized (``normalized(_:)``).
    private let keptKeys: Set<String>

    /// - Parameter keepQueryValues: the keys whose values are kept (`traffic_sample.keep_query_values`).
    package init(keepQueryValues: [String] = []) {
        keptKeys = Set(keepQueryValues.map(Self.normalized))
    }

    /// `url` as the sample keeps it.
    package func redact(_ url: String) -> String {
        var rest = Substring(url)
        var fragment: Substring?
        if let hash = rest.firstIndex(of: "#") {
            fragment = rest[rest.index(after: hash)...]
            rest = rest[..<hash]
        }
        var query: Substring?
        if let question = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: question)...]
            rest = rest[..<question]
        }
        var out = Self.withoutUserInfo(rest)
        if let query {
            out += "?"
            redactPairs(query, into: &out)
        }
        if let fragment {
            out += "#"
            redactPairs(fragment, into: &out)
        }
        return out
    }

    /// Appends the `&`-separated `key=value` pairs of `text`, each value kept or replaced.
    private func redactPairs(_ text: Substring, into out: inout String) {
        var first = true
        for pair in text.split(separator: "&", omittingEmptySubsequences: false) {
            if !first { out += "&" }
            first = false
            guard let equals = pair.firstIndex(of: "=") else {
                // A bare item (`?debug`, `#section-2`) is a value without a key.
                out += keeps(value: pair, key: nil) ? String(pair) : Self.shape(pair)
                continue
            }
            let key = pair[..<equals]
            let value = pair[pair.index(after: equals)...]
            out += key
            out += "="
            out += keeps(value: value, key: key) ? String(value) : Self.shape(value)
        }
    }

    /// Whether `value`, sent under `key`, is kept as it is.
    private func keeps(value: Substring, key: Substring?) -> Bool {
        if value.isEmpty { return true }
        guard let key else { return Self.looksHarmless(value) }
        if Self.isSecret(key) { return false }
        let normalized = Self.normalized(key)
        if keptKeys.contains(normalized) { return true }
        return !Self.isIdentifying(key) && Self.looksHarmless(value)
    }

    /// Short, and without an `@`.
    private static func looksHarmless(_ value: Substring) -> Bool {
        value.utf8.count <= longestKeptValue && !value.contains("@") && !value.contains("%40")
    }

    /// Whether `key` names a secret whose value is never kept: it contains `token`, `secret`,
    /// `passw`, `signature`, `auth`, `session`, `credential` or `apikey`, or is (or ends in
    /// `_`/`-` and) `key`, `sig`, `code`, `otp`, `pwd`, `hash` or `nonce`. Case is ignored.
    package static func isSecret<Key: StringProtocol>(_ key: Key) -> Bool {
        let key = normalized(key)
        let containing = ["token", "secret", "passw", "signature", "auth", "session", "credential", "apikey"]
        if containing.contains(where: key.contains) { return true }
        let words = ["key", "sig", "code", "otp", "pwd", "hash", "nonce"]
        return words.contains { key == $0 || key.hasSuffix("_" + $0) }
    }

    /// Whether `key` identifies a person, a device or a click: `utm_*`, the click ids
    /// (`gclid`, `fbclid`, `msclkid`, `dclid`, `gbraid`, `wbraid`, `ttclid`, `twclid`,
    /// `yclid`, `cid`, `clickid`, `mc_eid`), any key ending in `id` (`id`, `uid`,
    /// `user_id`, `deviceId`), `email` and `phone`. Case is ignored.
    package static func isIdentifying<Key: StringProtocol>(_ key: Key) -> Bool {
        let key = normalized(key)
        if key.hasPrefix("utm_") || key.hasSuffix("id") { return true }
        let named: Set<String> = [
            "gclid", "fbclid", "msclkid", "dclid", "gbraid", "wbraid", "ttclid", "twclid", "yclid", "clickid", "mc_eid",
            "email", "phone",
        ]
        return named.contains(key)
    }

    /// `key` lowercased, with `-` read as `_` (`X-Api-Key` and `x_api_key` are one key).
    private static func normalized<Key: StringProtocol>(_ key: Key) -> String {
        String(key.lowercased().map { $0 == "-" ? "_" : $0 })
    }

    /// The shape of `value`: digits `0`, letters `x`/`X`, percent escapes and non-ASCII `_`,
    /// other ASCII as it is.
    package static func shape(_ value: Substring) -> String {
        var out = String.UnicodeScalarView()
        var scalars = value.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "0"..."9": out.append("0")
            case "a"..."z": out.append("x")
            case "A"..."Z": out.append("X")
            case "%":
                out.append("_")
                // The two hex digits of the escape go with it.
                scalars = scalars.dropFirst(2)
            default: out.append(scalar.isASCII ? scalar : "_")
            }
        }
        return String(out)
    }

    /// `text` (scheme, authority, path) without `user:password@` in its authority.
    private static func withoutUserInfo(_ text: Substring) -> String {
        guard let colon = text.firstIndex(of: ":"), text[text.index(after: colon)...].hasPrefix("//") else {
            return String(text)
        }
        let authorityStart = text.index(colon, offsetBy: 3)
        let authorityEnd = text[authorityStart...].firstIndex(of: "/") ?? text.endIndex
        guard let at = text[authorityStart..<authorityEnd].lastIndex(of: "@") else { return String(text) }
        return String(text[..<authorityStart]) + text[text.index(after: at)...]
    }
}
