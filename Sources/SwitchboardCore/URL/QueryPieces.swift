/// One `name=value` pair of a query as decoded bytes (see ``QueryPieces``).
struct QueryPiece {
    /// The decoded name.
    var name: UnsafeBufferPointer<UInt8>
    /// The decoded value; empty when there is no `=`.
    var value: UnsafeBufferPointer<UInt8>
}

/// A query split into its pairs without making a `String` or an array: the bytes of
/// ``ParsedURL/queryItems()``, for the resolve path that writes them straight into JSON.
enum QueryPieces {
    /// Calls `body` with the pairs of `query` (without `?`), in order, split on `&` (empty pieces
    /// skipped; a piece without `=` has an empty value) and percent-decoded with `+` meaning a
    /// space; `nil` when a name or value has a bad escape or is not UTF-8 once decoded (where
    /// ``ParsedURL/queryItems()`` throws). Pieces that need no decoding point into `query`,
    /// the others into a scratch buffer; both live until `body` returns.
    static func withDecoded<Result>(
        _ query: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<QueryPiece>?) -> Result
    ) -> Result {
        var pieceCount = 1
        for byte in query where byte == UInt8(ascii: "&") { pieceCount += 1 }
        return withUnsafeTemporaryAllocation(of: QueryPiece.self, capacity: pieceCount) { pieces in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(query.count, 1)) { scratch in
                var count = 0
                var used = 0
                // Decoded text is never longer than its source, so what is left of the scratch
                // buffer always holds the next piece.
                func decode(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8>? {
                    let encoded = UnsafeBufferPointer(rebasing: query[range])
                    guard PercentEncoding.needsDecoding(encoded, plusAsSpace: true) else { return encoded }
                    let destination = UnsafeMutableBufferPointer(rebasing: scratch[used...])
                    guard let decodedCount = PercentEncoding.decode(encoded, into: destination, plusAsSpace: true) else {
                        return nil
                    }
                    defer { used += decodedCount }
                    return UnsafeBufferPointer(rebasing: scratch[used..<used + decodedCount])
                }
                var start = 0
                for index in 0...query.count where index == query.count || query[index] == UInt8(ascii: "&") {
                    defer { start = index + 1 }
                    guard index > start else { continue }
                    var equals = start
                    while equals < index, query[equals] != UInt8(ascii: "=") { equals += 1 }
                    guard let name = decode(start..<equals), let value = decode(min(equals + 1, index)..<index) else {
                        return body(nil)
                    }
                    pieces[count] = QueryPiece(name: name, value: value)
                    count += 1
                }
                return body(UnsafeBufferPointer(rebasing: pieces[0..<count]))
            }
        }
    }
}
