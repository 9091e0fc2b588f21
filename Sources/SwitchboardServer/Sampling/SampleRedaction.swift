/// What the traffic sample keeps of a URL: the scheme, host and path as sent, the query and
/// fragment with each value either kept or replaced by its shape (docs/impact-preview.md "Traffic sample"):
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
    private let keptKeys: Set<[UInt8]>

    /// - Parameter keepQueryValues: the keys whose values are kept (`traffic_sample.keep_query_values`).
    package init(keepQueryValues: [String] = []) {
        keptKeys = Set(keepQueryValues.map { Self.normalized($0.utf8) })
    }

    /// Bytes of the URL being redacted.
    private typealias Bytes = Slice<UnsafeBufferPointer<UInt8>>

    /// `url` as the sample keeps it. Works on the UTF-8 bytes: this runs on the request's
    /// thread for every request the sample takes.
    package func redact(_ url: String) -> String {
        var url = url
        return url.withUTF8 { buffer in
            let bytes = buffer[...]
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            let hash = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
            let question = bytes[..<hash].firstIndex(of: UInt8(ascii: "?")) ?? hash
            Self.appendWithoutUserInfo(bytes[..<question], to: &out)
            if question < hash {
                out.append(UInt8(ascii: "?"))
                appendPairs(bytes[(question + 1)..<hash], to: &out)
            }
            if hash < bytes.endIndex {
                out.append(UInt8(ascii: "#"))
                appendPairs(bytes[(hash + 1)...], to: &out)
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// Appends the `&`-separated `key=value` pairs of `text`, each value kept or replaced.
    private func appendPairs(_ text: Bytes, to out: inout [UInt8]) {
        var start = text.startIndex
        while true {
            let ampersand = text[start...].firstIndex(of: UInt8(ascii: "&")) ?? text.endIndex
            let pair = text[start..<ampersand]
            if let equals = pair.firstIndex(of: UInt8(ascii: "=")) {
                let key = pair[..<equals]
                let value = pair[(equals + 1)...]
                out.append(contentsOf: key)
                out.append(UInt8(ascii: "="))
                Self.append(value, kept: keeps(value: value, key: key), to: &out)
            } else {
                // A bare item (`?debug`, `#section-2`) is a value without a key.
                Self.append(pair, kept: keeps(value: pair, key: nil), to: &out)
            }
            guard ampersand < text.endIndex else { return }
            out.append(UInt8(ascii: "&"))
            start = ampersand + 1
        }
    }

    /// Whether `value`, sent under `key`, is kept as it is.
    private func keeps(value: Bytes, key: Bytes?) -> Bool {
        if value.isEmpty { return true }
        guard let key else { return Self.looksHarmless(value) }
        let normalized = Self.normalized(key)
        if Self.isSecret(normalized: normalized) { return false }
        if keptKeys.contains(normalized) { return true }
        return !Self.isIdentifying(normalized: normalized) && Self.looksHarmless(value)
    }

    /// Short, and without an `@` (nor `%40`).
    private static func looksHarmless(_ value: Bytes) -> Bool {
        guard value.count <= longestKeptValue, !value.contains(UInt8(ascii: "@")) else { return false }
        var index = value.startIndex
        while let percent = value[index...].firstIndex(of: UInt8(ascii: "%")) {
            if value[(percent + 1)...].starts(with: [UInt8(ascii: "4"), UInt8(ascii: "0")]) { return false }
            index = percent + 1
        }
        return true
    }

    /// Appends `value` as it is, or its shape.
    private static func append(_ value: Bytes, kept: Bool, to out: inout [UInt8]) {
        guard !kept else {
            out.append(contentsOf: value)
            return
        }
        var index = value.startIndex
        while index < value.endIndex {
            let byte = value[index]
            index += 1
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): out.append(UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): out.append(UInt8(ascii: "x"))
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): out.append(UInt8(ascii: "X"))
            case UInt8(ascii: "%"):
                out.append(UInt8(ascii: "_"))
                // The two hex digits of the escape go with it.
                index = min(index + 2, value.endIndex)
            case 0x80...0xBF:
                // The rest of a non-ASCII character, whose first byte gave its `_`.
                continue
            case 0xC0...:
                out.append(UInt8(ascii: "_"))
            default:
                out.append(byte)
            }
        }
    }

    /// Whether `key` names a secret whose value is never kept: it contains `token`, `secret`,
    /// `passw`, `signature`, `auth`, `session`, `credential` or `apikey`, or is (or ends in
    /// `_`/`-` and) `key`, `sig`, `code`, `otp`, `pwd`, `hash` or `nonce`. Case is ignored.
    package static func isSecret<Key: StringProtocol>(_ key: Key) -> Bool {
        isSecret(normalized: normalized(key.utf8))
    }

    /// Whether `key` identifies a person, a device or a click: `utm_*`, the click ids
    /// (`gclid`, `fbclid`, `msclkid`, `dclid`, `gbraid`, `wbraid`, `ttclid`, `twclid`,
    /// `yclid`, `cid`, `clickid`, `mc_eid`), any key ending in `id` (`id`, `uid`,
    /// `user_id`, `deviceId`), `email` and `phone`. Case is ignored.
    package static func isIdentifying<Key: StringProtocol>(_ key: Key) -> Bool {
        isIdentifying(normalized: normalized(key.utf8))
    }

    // The word lists as bytes: keys are compared as bytes, because `String.contains` of a
    // substring costs microseconds and this runs on a request's thread.
    private static let secretParts = bytes(["token", "secret", "passw", "signature", "auth", "session", "credential", "apikey"])
    private static let secretWords = bytes(["key", "sig", "code", "otp", "pwd", "hash", "nonce"])
    private static let secretSuffixes = secretWords.map { [UInt8(ascii: "_")] + $0 }
    private static let identifyingNames = Set(
        bytes([
            "gclid", "fbclid", "msclkid", "dclid", "gbraid", "wbraid", "ttclid", "twclid", "yclid", "clickid", "mc_eid",
            "email", "phone",
        ]))
    private static let identifyingPrefix = Array("utm_".utf8)
    private static let identifyingSuffix = Array("id".utf8)

    private static func bytes(_ words: [String]) -> [[UInt8]] {
        words.map { Array($0.utf8) }
    }

    /// ``isSecret(_:)`` of a key already normalized (``normalized(_:)``).
    private static func isSecret(normalized key: [UInt8]) -> Bool {
        secretParts.contains { key.containsBytes($0) } || secretWords.contains(key)
            || secretSuffixes.contains { key.hasSuffixBytes($0) }
    }

    /// ``isIdentifying(_:)`` of a key already normalized (``normalized(_:)``).
    private static func isIdentifying(normalized key: [UInt8]) -> Bool {
        key.starts(with: identifyingPrefix) || key.hasSuffixBytes(identifyingSuffix) || identifyingNames.contains(key)
    }

    /// `key` with ASCII letters lowercased and `-` read as `_` (`X-Api-Key` and `x_api_key`
    /// are one key).
    private static func normalized<Key: Collection<UInt8>>(_ key: Key) -> [UInt8] {
        key.map { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte + 32
            case UInt8(ascii: "-"): UInt8(ascii: "_")
            default: byte
            }
        }
    }

    /// The shape of `value`: digits `0`, letters `x`/`X`, percent escapes and non-ASCII `_`,
    /// other ASCII as it is.
    package static func shape(_ value: String) -> String {
        var value = value
        return value.withUTF8 { buffer in
            var out: [UInt8] = []
            append(buffer[...], kept: false, to: &out)
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// Appends `text` (scheme, authority, path) without `user:password@` in its authority.
    private static func appendWithoutUserInfo(_ text: Bytes, to out: inout [UInt8]) {
        guard let colon = text.firstIndex(of: UInt8(ascii: ":")),
            text[(colon + 1)...].starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")])
        else {
            out.append(contentsOf: text)
            return
        }
        let authorityStart = colon + 3
        let authorityEnd = text[authorityStart...].firstIndex(of: UInt8(ascii: "/")) ?? text.endIndex
        guard let at = text[authorityStart..<authorityEnd].lastIndex(of: UInt8(ascii: "@")) else {
            out.append(contentsOf: text)
            return
        }
        out.append(contentsOf: text[..<authorityStart])
        out.append(contentsOf: text[(at + 1)...])
    }
}

extension [UInt8] {
    /// Whether `part` occurs anywhere in these bytes.
    fileprivate func containsBytes(_ part: [UInt8]) -> Bool {
        guard part.count <= count else { return false }
        guard let first = part.first else { return true }
        for start in 0...(count - part.count) where self[start] == first {
            if self[start..<(start + part.count)].elementsEqual(part) { return true }
        }
        return false
    }

    /// Whether these bytes end with `suffix`.
    fileprivate func hasSuffixBytes(_ suffix: [UInt8]) -> Bool {
        count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix)
    }
}
