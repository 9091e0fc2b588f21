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
        return try decodePieces(of: path, at: pathOffset, separatedBy: UInt8(ascii: "/")) { src, range, scratch in
            Self.decode(src, range, plusAsSpace: false, scratch: scratch)
        }
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
        return try decodePieces(of: query, at: queryOffset, separatedBy: UInt8(ascii: "&")) { src, range, scratch in
            var equals = range.lowerBound
            while equals < range.upperBound, src[equals] != UInt8(ascii: "=") {
                equals += 1
            }
            let valueStart = min(equals + 1, range.upperBound)
            let name = Self.decode(src, range.lowerBound..<equals, plusAsSpace: true, scratch: scratch)
            let value = Self.decode(src, valueStart..<range.upperBound, plusAsSpace: true, scratch: scratch)
            switch (name, value) {
            case (.success(let name), .success(let value)):
                return .success(QueryItem(name: name, value: value))
            case (.failure(let error), _), (_, .failure(let error)):
                return .failure(error)
            }
        }
    }

    /// Splits `component` on `separator`, skips empty pieces and turns each other piece into an
    /// item with `makeItem(bytes, pieceRange, scratch)`, where `scratch` is a buffer as long as
    /// `component` for decoding into.
    ///
    /// A failure's offset is relative to `component`, which starts at UTF-8 offset `offset` in
    /// ``string``; it is thrown as a ``URLParseError`` at the character position in ``string``.
    private func decodePieces<Item>(
        of component: String,
        at offset: Int,
        separatedBy separator: UInt8,
        _ makeItem: (
            UnsafeBufferPointer<UInt8>, Range<Int>, UnsafeMutableBufferPointer<UInt8>
        ) -> Result<Item, URLSyntaxError>
    ) throws(URLParseError) -> [Item] {
        var utf8 = component
        let result = utf8.withUTF8 { src -> Result<[Item], URLSyntaxError> in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: src.count) { scratch in
                var items: [Item] = []
                var start = 0
                for index in 0...src.count where index == src.count || src[index] == separator {
                    if index > start {
                        switch makeItem(src, start..<index, scratch) {
                        case .success(let item): items.append(item)
                        case .failure(let error): return .failure(error)
                        }
                    }
                    start = index + 1
                }
                return .success(items)
            }
        }
        switch result {
        case .success(let items):
            return items
        case .failure(let error):
            throw URLSyntaxError(message: error.message, byteOffset: offset + error.byteOffset).parseError(in: string)
        }
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
