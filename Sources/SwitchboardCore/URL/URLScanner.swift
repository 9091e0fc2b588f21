/// The single forward pass over a URL's UTF-8 bytes behind ``ParsedURL/parse(_:)``.
///
/// Each component is validated as it is scanned (RFC 3986 §3, with non-ASCII characters
/// allowed wherever a `%HH` escape is, as in RFC 3987); ``scan()`` finds where the components
/// are, and ``parse(_:)`` copies each into its `String` once.
/// Errors carry byte offsets; ``ParsedURL/parse(_:)`` turns them into character positions.
struct URLScanner {
    /// The UTF-8 bytes of the URL; valid UTF-8, as they come from a `String`.
    let bytes: UnsafeBufferPointer<UInt8>

    /// Parses the whole of ``bytes``, which are the UTF-8 of `text`.
    func parse(_ text: String) throws(URLSyntaxError) -> ParsedURL {
        let parts = try scan()
        return ParsedURL(
            string: text,
            scheme: makeString(parts.scheme, lowercasing: true),
            userinfo: parts.userinfo.map { makeString($0) },
            host: parts.host.map { makeString($0, lowercasing: parts.isHTTP) },
            port: parts.port,
            path: makeString(parts.path),
            query: parts.query.map { makeString($0) },
            fragment: parts.fragment.map { makeString($0) }
        )
    }

    /// Checks the whole of ``bytes`` and finds its components, without copying any of them.
    func scan() throws(URLSyntaxError) -> URLParts {
        let end = bytes.count
        guard end > 0 else {
            throw URLSyntaxError(message: "URL is empty", byteOffset: 0)
        }
        let schemeEnd = try scanScheme()
        let isHTTP = Self.isHTTP(UnsafeBufferPointer(rebasing: bytes[0..<schemeEnd]))
        var index = schemeEnd + 1

        var authority = Authority(userinfo: nil, host: nil, hostStart: index, port: nil)
        if end - index >= 2, bytes[index] == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "/") {
            index += 2
            authority = try scanAuthority(&index)
            if isHTTP, authority.host?.isEmpty ?? true {
                let scheme = makeString(0..<schemeEnd, lowercasing: true)
                throw URLSyntaxError(
                    message: "an \(scheme) URL must have a non-empty host",
                    byteOffset: authority.hostStart
                )
            }
        } else if isHTTP {
            let scheme = makeString(0..<schemeEnd, lowercasing: true)
            throw URLSyntaxError(
                message: "an \(scheme) URL must have a host, as in \(scheme)://example.com/",
                byteOffset: index
            )
        }

        let pathStart = index
        try scan(&index, allowing: .path)
        if index < end, bytes[index] != UInt8(ascii: "?"), bytes[index] != UInt8(ascii: "#") {
            throw disallowedCharacter(at: index, in: .path)
        }
        let path = pathStart..<index

        var query: Range<Int>?
        if index < end, bytes[index] == UInt8(ascii: "?") {
            index += 1
            let queryStart = index
            try scan(&index, allowing: .query)
            if index < end, bytes[index] != UInt8(ascii: "#") {
                throw disallowedCharacter(at: index, in: .query)
            }
            query = queryStart..<index
        }

        var fragment: Range<Int>?
        if index < end {  // necessarily at '#'
            index += 1
            let fragmentStart = index
            try scan(&index, allowing: .query)
            if index < end {
                throw disallowedCharacter(at: index, in: .fragment)
            }
            fragment = fragmentStart..<index
        }

        return URLParts(
            scheme: 0..<schemeEnd, isHTTP: isHTTP, userinfo: authority.userinfo, host: authority.host,
            port: authority.port, path: path, query: query, fragment: fragment)
    }

    /// Whether `scheme` is `http` or `https`, in any case.
    private static func isHTTP(_ scheme: UnsafeBufferPointer<UInt8>) -> Bool {
        guard scheme.count == 4 || scheme.count == 5,
            scheme[0] | 0x20 == UInt8(ascii: "h"), scheme[1] | 0x20 == UInt8(ascii: "t"),
            scheme[2] | 0x20 == UInt8(ascii: "t"), scheme[3] | 0x20 == UInt8(ascii: "p")
        else { return false }
        return scheme.count == 4 || scheme[4] | 0x20 == UInt8(ascii: "s")
    }

    // MARK: - Scheme

    /// Scans `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"` and returns the index of the `:`.
    ///
    /// When there is no scheme, tells a relative reference (no `:` before the first `/`, `?`
    /// or `#`) from a malformed scheme (a bad character before that `:`).
    private func scanScheme() throws(URLSyntaxError) -> Int {
        let end = bytes.count
        var index = 0
        if bytes[0] | 0x20 >= UInt8(ascii: "a"), bytes[0] | 0x20 <= UInt8(ascii: "z") {
            index = 1
            while index < end, URLCharacterSet.scheme.contains(bytes[index]) {
                index += 1
            }
        }
        if index > 0, index < end, bytes[index] == UInt8(ascii: ":") {
            return index
        }
        var delimiter = index
        while delimiter < end, !Self.isSchemeTerminator(bytes[delimiter]) {
            delimiter += 1
        }
        guard delimiter > 0, delimiter < end, bytes[delimiter] == UInt8(ascii: ":") else {
            throw URLSyntaxError(message: "URL must be absolute (have a scheme)", byteOffset: 0)
        }
        throw disallowedCharacter(at: index, in: .scheme)
    }

    /// Whether `byte` ends the first segment of a reference: `:`, `/`, `?` or `#`.
    private static func isSchemeTerminator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ":") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?")
            || byte == UInt8(ascii: "#")
    }

    // MARK: - Authority

    /// The parts of an authority, each `nil` when absent.
    private struct Authority {
        var userinfo: Range<Int>?
        var host: Range<Int>?
        /// The byte offset where the host starts (or would start).
        var hostStart: Int
        var port: Int?
    }

    /// Scans `[ userinfo "@" ] host [ ":" port ]` from `index` (just after `//`) up to the
    /// next `/`, `?`, `#` or the end, leaving `index` there.
    private func scanAuthority(_ index: inout Int) throws(URLSyntaxError) -> Authority {
        let start = index
        var userinfo: Range<Int>?
        if index < bytes.count, bytes[index] != UInt8(ascii: "[") {
            // Userinfo characters are host characters plus ':', so one scan covers both
            // `userinfo@` and `host:port`; which one it was shows at the first stop.
            try scan(&index, allowing: .userinfo)
            if index < bytes.count, bytes[index] == UInt8(ascii: "@") {
                userinfo = start..<index
                index += 1
            } else {
                guard isAuthorityEnd(index) else {
                    throw disallowedCharacter(at: index, in: .host)
                }
                var hostEnd = start
                while hostEnd < index, bytes[hostEnd] != UInt8(ascii: ":") {
                    hostEnd += 1
                }
                var portIndex = hostEnd
                let port = try scanPort(&portIndex)
                return Authority(userinfo: nil, host: start..<hostEnd, hostStart: start, port: port)
            }
        }

        let hostStart = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "[") {
            try scanIPLiteral(&index)
        } else {
            try scan(&index, allowing: .host)
        }
        let hostEnd = index
        let port = try scanPort(&index)
        return Authority(userinfo: userinfo, host: hostStart..<hostEnd, hostStart: hostStart, port: port)
    }

    /// Whether `index` is where an authority ends: the end, `/`, `?` or `#`.
    private func isAuthorityEnd(_ index: Int) -> Bool {
        guard index < bytes.count else { return true }
        let byte = bytes[index]
        return byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
    }

    /// Scans an optional `":" *DIGIT` up to the end of the authority.
    /// - Returns: The port, or `nil` when there is no `:` or no digit after it.
    private func scanPort(_ index: inout Int) throws(URLSyntaxError) -> Int? {
        guard !isAuthorityEnd(index) else { return nil }
        guard bytes[index] == UInt8(ascii: ":") else {
            throw disallowedCharacter(at: index, in: .host)
        }
        index += 1
        let digitsStart = index
        var value = 0
        while !isAuthorityEnd(index) {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else {
                throw disallowedCharacter(at: index, in: .port)
            }
            if value <= 65535 {
                value = value * 10 + Int(digit)
            }
            index += 1
        }
        guard index > digitsStart else { return nil }
        guard value <= 65535 else {
            let written = makeString(digitsStart..<index)
            throw URLSyntaxError(message: "port \(written) is out of range 0-65535", byteOffset: digitsStart)
        }
        return value
    }

    /// Scans `"[" ( IPv6address / IPvFuture ) "]"` from the `[` at `index` to just past the `]`.
    private func scanIPLiteral(_ index: inout Int) throws(URLSyntaxError) {
        let open = index
        index += 1
        let contentStart = index
        let isFuture = index < bytes.count && bytes[index] | 0x20 == UInt8(ascii: "v")
        while index < bytes.count, bytes[index] != UInt8(ascii: "]") {
            let byte = bytes[index]
            if isAuthorityEnd(index) {
                break
            }
            let allowed =
                isFuture
                ? URLCharacterSet.userinfo.contains(byte)
                : URLCharacterSet.hexDigit.contains(byte) || byte == UInt8(ascii: ":")
                    || byte == UInt8(ascii: ".")
            guard allowed else {
                throw disallowedCharacter(at: index, in: isFuture ? .ipFuture : .ipv6)
            }
            index += 1
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "]") else {
            throw URLSyntaxError(message: "'[' opens an IPv6 address that has no closing ']'", byteOffset: open)
        }
        let valid =
            isFuture
            ? IPLiteral.isValidIPvFuture(bytes, from: contentStart, to: index)
            : IPLiteral.isValidIPv6(bytes, from: contentStart, to: index)
        guard valid else {
            let written = makeString(contentStart..<index)
            let kind = isFuture ? "IPvFuture address (v<hex>.<text>)" : "IPv6 address"
            throw URLSyntaxError(message: "invalid \(kind) '\(written)'", byteOffset: contentStart)
        }
        index += 1
    }

    // MARK: - Scanning

    /// Advances `index` over ASCII bytes in `set`, valid `%HH` escapes and non-ASCII
    /// characters, stopping at the first other byte (or the end) for the caller to judge.
    /// - Throws: On a `%` not followed by two hex digits, or a C1 control character.
    @inline(__always)
    private func scan(_ index: inout Int, allowing set: URLCharacterSet) throws(URLSyntaxError) {
        let end = bytes.count
        while index < end {
            let byte = bytes[index]
            if set.contains(byte) {
                index += 1
            } else if byte == UInt8(ascii: "%") {
                guard PercentEncoding.isValidEscape(bytes, at: index) else {
                    throw URLSyntaxError(
                        message: PercentEncoding.invalidEscapeMessage(bytes, at: index),
                        byteOffset: index
                    )
                }
                index += 3
            } else if byte >= 0x80 {
                // U+0080...U+009F (C1 controls) are C2 80...C2 9F.
                if byte == 0xC2, index + 1 < end, bytes[index + 1] < 0xA0 {
                    throw disallowedCharacter(at: index, in: .path)
                }
                index += 1
            } else {
                return
            }
        }
    }

    /// The bytes in `range` as a `String`, optionally lowercased as ``HostLowercasing`` lowers
    /// a host (hex digits of `%HH` escapes are kept as written; a scheme is ASCII).
    func makeString(_ range: Range<Int>, lowercasing: Bool = false) -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[range])
        guard lowercasing else { return String(decoding: slice, as: UTF8.self) }
        if HostLowercasing.needsUnicode(slice) { return HostLowercasing.lowercased(slice) }
        guard slice.contains(where: { $0 &- UInt8(ascii: "A") < 26 }) else {
            return String(decoding: slice, as: UTF8.self)
        }
        return String(unsafeUninitializedCapacity: slice.count) { out in
            var escapeDigits = 0
            for (offset, byte) in slice.enumerated() {
                if escapeDigits > 0 {
                    escapeDigits -= 1
                    out[offset] = byte
                } else {
                    escapeDigits = byte == UInt8(ascii: "%") ? 2 : 0
                    out[offset] = byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
                }
            }
            return slice.count
        }
    }
}
