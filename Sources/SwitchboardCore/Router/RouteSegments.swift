/// Splits the route path of a URL into percent-decoded segments without allocating on the
/// heap for ordinary URLs (segments live on the stack; decoded bytes in a scratch buffer).
///
/// The route path of an `http`/`https` URL is its path; for other schemes the host is the
/// first segment (`myapp://product/42` → `product`, `42`). The path is split on `/` first,
/// then each segment is decoded once (`%2F` stays inside its segment), and empty segments
/// are dropped.
enum RouteSegments {
    /// Calls `body` with the decoded segments of `host` (when given) followed by `path`.
    /// - Parameters:
    ///   - hostOffset, pathOffset: the UTF-8 offsets of `host` and `path` in the URL, added to
    ///     the position of an error.
    /// - Throws: ``URLParseError`` for a bad `%` escape or invalid UTF-8 after decoding; its
    ///   position is the UTF-8 offset of the segment (plus `hostOffset` or `pathOffset`).
    @inline(__always)
    static func withSegments<Result>(
        host: String?, path: String, hostOffset: Int = 0, pathOffset: Int = 0,
        _ body: (UnsafeBufferPointer<PathSegment>) throws(URLParseError) -> Result
    ) throws(URLParseError) -> Result {
        var host = host
        var path = path
        // `String.withUTF8` rethrows untyped errors: carry the typed error out in a Swift.Result.
        let outcome = host.withUTF8Optional { hostBytes in
            path.withUTF8 { pathBytes in
                Swift.Result { () throws(URLParseError) -> Result in
                    try split(host: hostBytes, path: pathBytes, hostOffset: hostOffset, pathOffset: pathOffset, body)
                }
            }
        }
        return try outcome.get()
    }

    @inline(__always)
    private static func split<Result>(
        host: UnsafeBufferPointer<UInt8>?, path: UnsafeBufferPointer<UInt8>, hostOffset: Int, pathOffset: Int,
        _ body: (UnsafeBufferPointer<PathSegment>) throws(URLParseError) -> Result
    ) throws(URLParseError) -> Result {
        var capacity = 1 + (host == nil ? 0 : 1)
        var needsScratch = false
        for byte in path {
            if byte == UInt8(ascii: "/") { capacity += 1 }
            if byte == UInt8(ascii: "%") { needsScratch = true }
        }
        if let host, host.contains(UInt8(ascii: "%")) { needsScratch = true }
        let scratchSize = needsScratch ? path.count + (host?.count ?? 0) : 0
        return try withUnsafeTemporaryAllocation(of: PathSegment.self, capacity: capacity) { (segments) throws(URLParseError) -> Result in
            try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(scratchSize, 1)) { (scratch) throws(URLParseError) -> Result in
                var count = 0
                var scratchUsed = 0
                func add(_ piece: UnsafeBufferPointer<UInt8>, offset: Int) throws(URLParseError) {
                    guard let base = piece.baseAddress, !piece.isEmpty else { return }
                    guard piece.contains(UInt8(ascii: "%")) else {
                        segments[count] = PathSegment(start: base, count: piece.count)
                        count += 1
                        return
                    }
                    let destination = UnsafeMutableBufferPointer(rebasing: scratch[scratchUsed...])
                    guard let decodedBase = destination.baseAddress,
                        let length = PercentDecoding.decode(piece, into: destination)
                    else {
                        throw URLParseError(
                            message: "invalid percent-escape or invalid UTF-8 after percent-decoding in path segment '\(String(decoding: piece, as: UTF8.self))'",
                            position: offset)
                    }
                    segments[count] = PathSegment(start: UnsafePointer(decodedBase), count: length)
                    count += 1
                    scratchUsed += length
                }
                if let host { try add(host, offset: hostOffset) }
                var segmentStart = 0
                for index in 0...path.count where index == path.count || path[index] == UInt8(ascii: "/") {
                    try add(UnsafeBufferPointer(rebasing: path[segmentStart..<index]), offset: pathOffset + segmentStart)
                    segmentStart = index + 1
                }
                return try body(UnsafeBufferPointer(rebasing: segments[0..<count]))
            }
        }
    }
}

extension Optional where Wrapped == String {
    /// `withUTF8` for an optional string: `nil` stays `nil`.
    @inline(__always)
    fileprivate mutating func withUTF8Optional<Result>(_ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        guard var text = self else { return body(nil) }
        return text.withUTF8 { body($0) }
    }
}
