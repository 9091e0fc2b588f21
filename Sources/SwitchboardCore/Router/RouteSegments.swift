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

    /// Calls `body` with the decoded segments of `host` (when given) followed by `path`, both
    /// UTF-8 bytes; errors as in the `String` form.
    @inline(__always)
    static func withSegments<Result>(
        hostBytes host: UnsafeBufferPointer<UInt8>?, pathBytes path: UnsafeBufferPointer<UInt8>, hostOffset: Int = 0,
        pathOffset: Int = 0, _ body: (UnsafeBufferPointer<PathSegment>) throws(URLParseError) -> Result
    ) throws(URLParseError) -> Result {
        try split(host: host, path: path, hostOffset: hostOffset, pathOffset: pathOffset, body)
    }

    /// One pass over the bytes: segments and their `%` flags are found together. Buffers are
    /// sized by upper bounds (a non-empty segment takes at least one byte and one `/`), so
    /// for ordinary URLs both fit on the stack.
    @inline(__always)
    private static func split<Result>(
        host: UnsafeBufferPointer<UInt8>?, path: UnsafeBufferPointer<UInt8>, hostOffset: Int, pathOffset: Int,
        _ body: (UnsafeBufferPointer<PathSegment>) throws(URLParseError) -> Result
    ) throws(URLParseError) -> Result {
        let hostCount = host?.count ?? 0
        let capacity = (path.count + 1) / 2 + 1
        return try withUnsafeTemporaryAllocation(of: PathSegment.self, capacity: capacity) { (segments) throws(URLParseError) -> Result in
            try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: path.count + hostCount + 1) {
                (scratch) throws(URLParseError) -> Result in
                var count = 0
                var scratchUsed = 0
                func add(_ base: UnsafePointer<UInt8>, _ length: Int, escaped: Bool, offset: Int) throws(URLParseError) {
                    guard length > 0 else { return }
                    guard escaped else {
                        segments[count] = PathSegment(start: base, count: length)
                        count += 1
                        return
                    }
                    let piece = UnsafeBufferPointer(start: base, count: length)
                    let destination = UnsafeMutableBufferPointer(rebasing: scratch[scratchUsed...])
                    guard let decodedBase = destination.baseAddress,
                        let decodedLength = PercentEncoding.decode(piece, into: destination, plusAsSpace: false)
                    else {
                        throw URLParseError(
                            message:
                                "invalid percent-escape or invalid UTF-8 after percent-decoding in path segment '\(String(decoding: piece, as: UTF8.self))'",
                            position: offset)
                    }
                    segments[count] = PathSegment(start: UnsafePointer(decodedBase), count: decodedLength)
                    count += 1
                    scratchUsed += decodedLength
                }
                if let host, let base = host.baseAddress {
                    try add(base, host.count, escaped: host.contains(UInt8(ascii: "%")), offset: hostOffset)
                }
                if let base = path.baseAddress {
                    var segmentStart = 0
                    var escaped = false
                    var index = 0
                    while index < path.count {
                        let byte = base[index]
                        if byte == UInt8(ascii: "/") {
                            try add(base + segmentStart, index - segmentStart, escaped: escaped, offset: pathOffset + segmentStart)
                            segmentStart = index + 1
                            escaped = false
                        } else if byte == UInt8(ascii: "%") {
                            escaped = true
                        }
                        index += 1
                    }
                    try add(base + segmentStart, path.count - segmentStart, escaped: escaped, offset: pathOffset + segmentStart)
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
