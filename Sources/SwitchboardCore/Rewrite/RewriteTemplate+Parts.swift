extension RewriteTemplate {
    /// Appends to `output` the template expanded for the URL whose UTF-8 is `subject` and
    /// whose components are `parts`: the bytes of ``expand(url:subject:match:)`` on the
    /// ``ParsedURL`` of `subject`, without making that URL's strings.
    /// - Parameters:
    ///   - parts: the components of `subject` (``URLScanner/scan()``).
    ///   - subject: the UTF-8 of the URL, which the regex ran on.
    ///   - match: the group ranges in `subject`; `nil` makes every group empty.
    func expand(
        parts: URLParts, subject: UnsafeBufferPointer<UInt8>, match: RegexMatch?, into output: inout [UInt8]
    ) {
        // Enough for every variable percent-encoded, so that the buffer grows once at most.
        output.reserveCapacity(output.count + source.utf8.count + 3 * subject.count)
        for segment in segments {
            switch segment {
            case .literal(let bytes):
                output.append(contentsOf: bytes)
            case .variable(.group(let number), let transform):
                if let range = match?[number] {
                    Self.append(UnsafeBufferPointer(rebasing: subject[range]), transform, to: &output)
                }
            case .variable(.port, let transform):
                guard let port = parts.port else { continue }
                Self.withDecimalDigits(of: port) { Self.append($0, transform, to: &output) }
            case .variable(let variable, let transform):
                guard let range = Self.range(of: variable, in: parts, count: subject.count) else { continue }
                let value = UnsafeBufferPointer(rebasing: subject[range])
                // ParsedURL lowercases the scheme, and the host of http(s) URLs.
                let lowercases = variable == .scheme || (variable == .host && parts.isHTTP)
                if lowercases, value.contains(where: { $0 &- UInt8(ascii: "A") < 26 }) {
                    Self.withLowercased(value) { Self.append($0, transform, to: &output) }
                } else {
                    Self.append(value, transform, to: &output)
                }
            }
        }
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

    private static func append(_ value: UnsafeBufferPointer<UInt8>, _ transform: Transform, to output: inout [UInt8]) {
        switch transform {
        case .none: output.append(contentsOf: value)
        case .queryEncoded: PercentEncoding.appendEncodedForQueryValue(value, to: &output)
        case .percentDecoded: PercentEncoding.appendDecodedLeniently(value, to: &output)
        }
    }

    /// Calls `body` with the decimal digits of `value` (0 or more), as `String(value)` writes them.
    private static func withDecimalDigits(of value: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var rest = value
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            body(UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Calls `body` with `value` with its ASCII letters lowercased, the hex digits of `%HH`
    /// escapes kept as written (as ``URLScanner/makeString(_:lowercasingASCII:)``).
    private static func withLowercased(_ value: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
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
            body(UnsafeBufferPointer(lowered))
        }
    }
}
