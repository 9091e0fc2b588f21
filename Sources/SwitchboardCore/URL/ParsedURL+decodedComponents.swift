extension ParsedURL {
    /// The path split on `/`, each segment then percent-decoded once.
    ///
    /// Splitting comes first, so `%2F` stays inside its segment. Empty segments are dropped
    /// (`/a//b/` gives the same as `/a/b`), dot-segments are not special, and `+` stays a `+`.
    ///
    /// ```swift
    /// try ParsedURL.parse("myapp://h/a%2Fb//c+d/").pathSegments() // ["a/b", "c+d"]
    /// ```
    ///
    /// - Returns: The decoded non-empty segments, in order.
    /// - Throws: ``URLParseError`` when a segment is not valid UTF-8 once decoded (such as
    ///   `%FF`); its position is that of the escape in ``string``.
    public func pathSegments() throws(URLParseError) -> [String] {
        let pathOffset = string.utf8.count - path.utf8.count - Self.tailLength(query) - Self.tailLength(fragment)
        var utf8 = path
        let result = utf8.withUTF8 { src -> Result<[String], URLSyntaxError> in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: src.count) { scratch in
                var segments: [String] = []
                var start = 0
                for index in 0...src.count where index == src.count || src[index] == UInt8(ascii: "/") {
                    if index > start {
                        switch Self.decode(src, start..<index, plusAsSpace: false, scratch: scratch) {
                        case .success(let segment): segments.append(segment)
                        case .failure(let error): return .failure(error)
                        }
                    }
                    start = index + 1
                }
                return .success(segments)
            }
        }
        return try result.get(in: string, atOffset: pathOffset)
    }

    /// The query's `name=value` pairs, in order, percent-decoded with `+` meaning a space.
    ///
    /// The query is split on `&` only (not `;`); empty pieces are skipped; a piece without `=`
    /// has the value `""`; a repeated name gives one item per occurrence.
    ///
    /// ```swift
    /// try ParsedURL.parse("myapp://s?q=a+b%2B&tag=x&tag=y&flag").queryItems()
    /// // [("q", "a b+"), ("tag", "x"), ("tag", "y"), ("flag", "")]
    /// ```
    ///
    /// - Returns: The items, empty when there is no query.
    /// - Throws: ``URLParseError`` when a name or value is not valid UTF-8 once decoded; its
    ///   position is that of the escape in ``string``.
    public func queryItems() throws(URLParseError) -> [QueryItem] {
        guard let query else { return [] }
        let queryOffset = string.utf8.count - query.utf8.count - Self.tailLength(fragment)
        var utf8 = query
        let result = utf8.withUTF8 { src -> Result<[QueryItem], URLSyntaxError> in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: src.count) { scratch in
                var items: [QueryItem] = []
                var start = 0
                for index in 0...src.count where index == src.count || src[index] == UInt8(ascii: "&") {
                    if index > start {
                        var equals = start
                        while equals < index, src[equals] != UInt8(ascii: "=") {
                            equals += 1
                        }
                        let valueStart = min(equals + 1, index)
                        let name = Self.decode(src, start..<equals, plusAsSpace: true, scratch: scratch)
                        let value = Self.decode(src, valueStart..<index, plusAsSpace: true, scratch: scratch)
                        switch (name, value) {
                        case (.success(let name), .success(let value)):
                            items.append(QueryItem(name: name, value: value))
                        case (.failure(let error), _), (_, .failure(let error)):
                            return .failure(error)
                        }
                    }
                    start = index + 1
                }
                return .success(items)
            }
        }
        return try result.get(in: string, atOffset: queryOffset)
    }

    /// The UTF-8 length of `"?" + part` or `"#" + part`; 0 when `part` is absent.
    private static func tailLength(_ part: String?) -> Int {
        part.map { $0.utf8.count + 1 } ?? 0
    }

    /// Percent-decodes `src[range]` into a `String`, using `scratch` (at least as long as `src`)
    /// as the buffer; the error's offset is relative to `src`.
    private static func decode(
        _ src: UnsafeBufferPointer<UInt8>,
        _ range: Range<Int>,
        plusAsSpace: Bool,
        scratch: UnsafeMutableBufferPointer<UInt8>
    ) -> Result<String, URLSyntaxError> {
        let encoded = UnsafeBufferPointer(rebasing: src[range])
        guard PercentEncoding.needsDecoding(encoded, plusAsSpace: plusAsSpace) else {
            return .success(String(decoding: encoded, as: UTF8.self))
        }
        if let count = PercentEncoding.decode(encoded, into: scratch, plusAsSpace: plusAsSpace) {
            return .success(String(decoding: UnsafeBufferPointer(rebasing: scratch[..<count]), as: UTF8.self))
        }
        let failure =
            PercentEncoding.decodingFailure(in: encoded, plusAsSpace: plusAsSpace)
            ?? URLSyntaxError(message: "invalid percent-encoding", byteOffset: 0)
        return .failure(URLSyntaxError(message: failure.message, byteOffset: range.lowerBound + failure.byteOffset))
    }
}

extension Result where Failure == URLSyntaxError {
    /// The success value, or the failure as a ``URLParseError`` whose position is a character
    /// index in `text`, given that offset 0 of the failure is UTF-8 offset `offset` in `text`.
    fileprivate func get(in text: String, atOffset offset: Int) throws(URLParseError) -> Success {
        switch self {
        case .success(let value):
            return value
        case .failure(let error):
            throw URLSyntaxError(message: error.message, byteOffset: offset + error.byteOffset).parseError(in: text)
        }
    }
}
