#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ParsedURL {
    /// Decodes a raw query string (without `?`) the way ``queryItems()`` does: split on `&`,
    /// empty pieces skipped, the name before the first `=`, percent-decoded with `+` meaning a
    /// space. Used for HTTP request queries.
    ///
    /// Every request's query goes through here, so the usual case, a query that decodes, runs
    /// straight over its bytes; a query that does not is parsed again as part of a URL for
    /// the error, which then says where it is exactly as ``queryItems()`` would.
    ///
    /// - Throws: ``URLParseError`` for a bad `%` escape or a name or value that is not UTF-8
    ///   once decoded.
    package static func queryItems(ofRawQuery query: String) throws(URLParseError) -> [QueryItem] {
        var raw = query
        if let items = raw.withUTF8(decodedItems) { return items }
        return try ParsedURL(uncheckedString: "?" + query, scheme: "", query: query).queryItems()
    }

    /// The items of the query `bytes`, or `nil` when a name or value does not decode.
    private static func decodedItems(_ bytes: UnsafeBufferPointer<UInt8>) -> [QueryItem]? {
        var items: [QueryItem] = []
        var start = 0
        while start < bytes.count {
            let end = firstOffset(of: UInt8(ascii: "&"), in: bytes, from: start, before: bytes.count)
            if end > start {
                let nameEnd = firstOffset(of: UInt8(ascii: "="), in: bytes, from: start, before: end)
                guard let name = decodedPiece(bytes, start..<nameEnd),
                    let value = decodedPiece(bytes, min(nameEnd + 1, end)..<end)
                else { return nil }
                items.append(QueryItem(name: name, value: value))
            }
            start = end + 1
        }
        return items
    }

    /// The offset of the first `byte` in `bytes[start..<end]`, or `end`. `memchr` scans many
    /// bytes per step: a link in a `url` value is a hundred bytes or more with neither `&` nor
    /// `=` in it (both are escaped), which a loop over single bytes walks one at a time.
    package static func firstOffset(
        of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int, before end: Int
    ) -> Int {
        guard let base = bytes.baseAddress, start < end else { return end }
        guard let found = memchr(base + start, Int32(byte), end - start) else { return end }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }

    /// `bytes[range]` percent-decoded with `+` as a space, or `nil` when it does not decode.
    private static func decodedPiece(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
        let piece = UnsafeBufferPointer(rebasing: bytes[range])
        // The bytes come from a `String`: already valid UTF-8 when nothing needs decoding.
        guard PercentEncoding.needsDecoding(piece, plusAsSpace: true) else {
            return String(decoding: piece, as: UTF8.self)
        }
        return PercentEncoding.decodedString(piece, plusAsSpace: true)
    }
}
