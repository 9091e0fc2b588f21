extension RewriteTemplate {
    /// The most bytes ``expand(parts:subject:match:into:)`` can write for a URL of
    /// `subjectCount` bytes: every variable as long as the whole URL (a port has at most five
    /// digits), tripled when percent-encoded.
    func expansionLimit(subjectCount: Int) -> Int {
        var limit = 0
        for segment in segments {
            switch segment {
            case .literal(let bytes): limit += bytes.count
            case .variable(_, .queryEncoded): limit += 3 * max(subjectCount, 5)
            case .variable: limit += max(subjectCount, 5)
            }
        }
        return limit
    }

    /// Writes to the front of `output` the template expanded for the URL whose UTF-8 is
    /// `subject` and whose components are `parts` (the bytes of ``expand(url:subject:match:)``
    /// on the ``ParsedURL`` of `subject`, without making that URL's strings), and returns how
    /// many bytes it wrote.
    /// - Parameters:
    ///   - parts: the components of `subject` (``URLScanner/scan()``).
    ///   - subject: the UTF-8 of the URL, which the regex ran on.
    ///   - match: the group ranges in `subject`; `nil` makes every group empty.
    ///   - output: at least ``expansionLimit(subjectCount:)`` bytes.
    func expand(
        parts: URLParts, subject: UnsafeBufferPointer<UInt8>, match: RegexMatch?, into output: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        var written = 0
        for segment in segments {
            let rest = UnsafeMutableBufferPointer(rebasing: output[written...])
            switch segment {
            case .literal(let bytes):
                written += bytes.withUnsafeBufferPointer { Self.copy($0, to: rest) }
            case .variable(.group(let number), let transform):
                if let range = match?[number] {
                    written += Self.write(UnsafeBufferPointer(rebasing: subject[range]), transform, to: rest)
                }
            case .variable(.port, let transform):
                guard let port = parts.port else { continue }
                written += Self.withDecimalDigits(of: port) { Self.write($0, transform, to: rest) }
            case .variable(let variable, let transform):
                guard let range = Self.range(of: variable, in: parts, count: subject.count) else { continue }
                let value = UnsafeBufferPointer(rebasing: subject[range])
                // ParsedURL lowercases the scheme, and the host of http(s) URLs.
                let lowercases = variable == .scheme || (variable == .host && parts.isHTTP)
                if lowercases, HostLowercasing.needsUnicode(value) {
                    var lowered = HostLowercasing.lowercased(value)
                    written += lowered.withUTF8 { Self.write($0, transform, to: rest) }
                } else if lowercases, value.contains(where: { $0 &- UInt8(ascii: "A") < 26 }) {
                    written += Self.withLowercased(value) { Self.write($0, transform, to: rest) }
                } else {
                    written += Self.write(value, transform, to: rest)
                }
            }
        }
        return written
    }

    /// Where the value of `variable` is in a URL of `count` bytes with components `parts`;
    /// `nil` for an absent part.
    private static func range(of variable: Variable, in parts: URLParts, count: Int) -> Range<Int>? {
        switch variable {
        case .scheme: parts.scheme
        case .host: parts.host
        case .path: parts.path
        case .query: parts.query
        case .fragment: parts.fragment
        case .url: 0..<count
        case .port, .group: nil
        }
    }

    /// Writes `value` transformed to the front of `output` and returns how many bytes it wrote.
    private static func write(
        _ value: UnsafeBufferPointer<UInt8>, _ transform: Transform, to output: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        switch transform {
        case .none:
            return copy(value, to: output)
        case .queryEncoded:
            return PercentEncoding.encodeForQueryValue(value, into: output) ?? 0
        case .percentDecoded:
            return PercentEncoding.decodeLeniently(value, into: output)
        }
    }

    /// Copies `value` to the front of `output` and returns its length.
    private static func copy(_ value: UnsafeBufferPointer<UInt8>, to output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        output.initialize(fromContentsOf: value)
    }

    /// Calls `body` with the decimal digits of `value` (0 or more), as `String(value)` writes them.
    private static func withDecimalDigits<Result>(of value: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var rest = value
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            return body(UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Calls `body` with `value`, which is ASCII, with its letters lowercased, the hex digits
    /// of `%HH` escapes kept as written (as ``URLScanner/makeString(_:lowercasing:)``).
    private static func withLowercased<Result>(
        _ value: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: value.count) { lowered in
            var escapeDigits = 0
            for (offset, byte) in value.enumerated() {
                if escapeDigits > 0 {
                    escapeDigits -= 1
                    lowered[offset] = byte
                } else {
                    escapeDigits = byte == UInt8(ascii: "%") ? 2 : 0
                    lowered[offset] = byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
                }
            }
            return body(UnsafeBufferPointer(lowered))
        }
    }
}
