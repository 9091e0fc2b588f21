extension ParsedURL {
    /// The URL as a URI, for places that need one such as a `Location` header (RFC 9110
    /// §10.2.2): ``string`` with every non-ASCII byte percent-encoded as `%HH` of its UTF-8
    /// (RFC 3987 §3.1), and everything else, escapes included, byte for byte as written.
    ///
    /// ``parse(_:)`` accepts non-ASCII characters only where an escape may stand and refuses
    /// every ASCII character a URI cannot hold, so encoding the non-ASCII bytes is all it takes.
    ///
    /// ```swift
    /// try ParsedURL.parse("https://m.example.com/café?q=%C3%A9").uriString
    /// // "https://m.example.com/caf%C3%A9?q=%C3%A9"
    /// ```
    package var uriString: String {
        guard string.utf8.contains(where: { $0 >= 0x80 }) else { return string }
        var encoded: [UInt8] = []
        encoded.reserveCapacity(string.utf8.count * 3)
        for byte in string.utf8 {
            if byte < 0x80 {
                encoded.append(byte)
            } else {
                encoded += [UInt8(ascii: "%"), PercentEncoding.hexDigit(byte &>> 4), PercentEncoding.hexDigit(byte & 0x0F)]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }
}
