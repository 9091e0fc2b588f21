/// Percent-encoding and -decoding (RFC 3986 §2.1) over UTF-8 bytes.
///
/// The byte-level entry points allocate nothing, so the router can decode path segments into a
/// scratch buffer; the `String` conveniences allocate only when something changes.
package enum PercentEncoding {
    /// The value of the hexadecimal digit `byte`, or `0xFF` when `byte` is not one.
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
        default: 0xFF
        }
    }

    /// The value of the hexadecimal digit `byte`, or `nil` when `byte` is not one.
    @inline(__always)
    static func hexDigitValue(_ byte: UInt8) -> UInt8? {
        let value = hexValue(byte)
        return value < 16 ? value : nil
    }

    /// The uppercase hexadecimal digit for `nibble` (0–15).
    @inline(__always)
    static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "A") &+ (nibble &- 10)
    }

    /// Whether `src[index]` is `%` followed by two hexadecimal digits.
    @inline(__always)
    static func isValidEscape(_ src: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        index + 2 < src.count && hexValue(src[index + 1]) | hexValue(src[index + 2]) < 16
    }

    /// Whether decoding `src` could change it: it holds a `%`, or a `+` while `plusAsSpace`.
    ///
    /// When this is `false`, the decoded form of `src` is `src` itself (if it is valid UTF-8).
    package static func needsDecoding(_ src: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool) -> Bool {
        for byte in src where byte == UInt8(ascii: "%") || (plusAsSpace && byte == UInt8(ascii: "+")) {
            return true
        }
        return false
    }

    /// Percent-decodes `src` once into `dst`.
    ///
    /// Each `%HH` becomes the byte `0xHH`; with `plusAsSpace` (query names and values) each `+`
    /// becomes a space, otherwise (paths) it stays a `+`. Decoding never lengthens its input, and
    /// `dst` may be `src` itself (decoding in place) since every write lags its read.
    ///
    /// - Parameters:
    ///   - src: The encoded UTF-8 bytes.
    ///   - dst: Where the decoded bytes go; needs room for `src.count` bytes.
    ///   - plusAsSpace: Whether `+` means a space.
    /// - Returns: The number of decoded bytes written to the front of `dst`, or `nil` when `src`
    ///   holds a `%` not followed by two hexadecimal digits, when the result is not valid
    ///   UTF-8, or when `dst` is shorter than `src`.
    package static func decode(
        _ src: UnsafeBufferPointer<UInt8>,
        into dst: UnsafeMutableBufferPointer<UInt8>,
        plusAsSpace: Bool
    ) -> Int? {
        guard dst.count >= src.count else { return nil }
        let count = src.count
        var read = 0
        var written = 0
        var sawNonASCII = false
        while read < count {
            var byte = src[read]
            if byte == UInt8(ascii: "%") {
                guard read + 2 < count else { return nil }
                let high = hexValue(src[read + 1])
                let low = hexValue(src[read + 2])
                guard high | low < 16 else { return nil }
                byte = high &<< 4 | low
                read += 3
            } else {
                if plusAsSpace && byte == UInt8(ascii: "+") {
                    byte = UInt8(ascii: " ")
                }
                read += 1
            }
            sawNonASCII = sawNonASCII || byte >= 0x80
            dst[written] = byte
            written += 1
        }
        if sawNonASCII,
            UTF8Validation.firstInvalidIndex(in: UnsafeBufferPointer(rebasing: dst[..<written])) != nil
        {
            return nil
        }
        return written
    }

    /// Percent-decodes `string` once; `nil` on a bad `%` escape or when the result is not valid
    /// UTF-8. Returns `string` itself, without copying, when there is nothing to decode.
    ///
    /// ```swift
    /// PercentEncoding.decode("caf%C3%A9+au+lait", plusAsSpace: true) // "café au lait"
    /// PercentEncoding.decode("a+b", plusAsSpace: false)               // "a+b"
    /// PercentEncoding.decode("%G1", plusAsSpace: false)               // nil
    /// ```
    package static func decode(_ string: String, plusAsSpace: Bool) -> String? {
        var utf8 = string
        return utf8.withUTF8 { src -> String? in
            guard needsDecoding(src, plusAsSpace: plusAsSpace) else { return string }
            return decodedString(src, plusAsSpace: plusAsSpace)
        }
    }

    /// `src` percent-decoded once as a string; `nil` on a bad `%` escape or when the result is
    /// not valid UTF-8. For bytes that need decoding (``needsDecoding(_:plusAsSpace:)``).
    package static func decodedString(_ src: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool) -> String? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: src.count) { dst -> String? in
            guard let count = decode(src, into: dst, plusAsSpace: plusAsSpace) else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: dst[..<count]), as: UTF8.self)
        }
    }

    /// Percent-decodes `string` if it decodes, for the rewrite engine's `$#` prefix; otherwise
    /// (a bad `%` escape, or invalid UTF-8 once decoded) returns `string` unchanged.
    ///
    /// - Parameter plusAsSpace: Whether `+` means a space; by default it stays a `+`.
    package static func decodeLeniently(_ string: String, plusAsSpace: Bool = false) -> String {
        decode(string, plusAsSpace: plusAsSpace) ?? string
    }

    /// Appends `src` percent-decoded once (`+` stays a `+`), or `src` unchanged when it does not
    /// decode (a bad `%` escape, or invalid UTF-8 once decoded): the rewrite engine's `$#`.
    ///
    /// ```swift
    /// PercentEncoding.appendDecodedLeniently(Array("a%20b".utf8), to: &output)  // appends "a b"
    /// ```
    static func appendDecodedLeniently(_ src: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        guard needsDecoding(src, plusAsSpace: false) else {
            output.append(contentsOf: src)
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: src.count) { dst in
            output.append(contentsOf: UnsafeBufferPointer(rebasing: dst[..<decodeLeniently(src, into: dst)]))
        }
    }

    /// Writes `src` percent-decoded once (`+` stays a `+`) to the front of `dst`, or `src`
    /// unchanged when it does not decode, and returns how many bytes it wrote: the rewrite
    /// engine's `$#`. `dst` needs room for `src.count` bytes.
    static func decodeLeniently(_ src: UnsafeBufferPointer<UInt8>, into dst: UnsafeMutableBufferPointer<UInt8>) -> Int {
        if needsDecoding(src, plusAsSpace: false), let count = decode(src, into: dst, plusAsSpace: false) {
            return count
        }
        // A failed decode may have written part of `dst`: the copy covers it.
        return dst.initialize(fromContentsOf: src)
    }

    /// Appends `src` percent-encoded for use as a query value (see
    /// ``encodeForQueryValue(_:into:)``): the rewrite engine's `$$`.
    static func appendEncodedForQueryValue(_ src: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 3 * src.count) { dst in
            let count = encodeForQueryValue(src, into: dst) ?? 0
            output.append(contentsOf: UnsafeBufferPointer(rebasing: dst[..<count]))
        }
    }

    /// Percent-encodes `src` for use as a query value: every byte except RFC 3986 unreserved
    /// characters (`ALPHA DIGIT - . _ ~`) becomes `%HH` (uppercase hex).
    ///
    /// - Parameters:
    ///   - src: UTF-8 bytes.
    ///   - dst: Where the encoded bytes go; `3 * src.count` bytes are always enough.
    /// - Returns: The number of bytes written to the front of `dst`, or `nil` when `dst` is too
    ///   short.
    package static func encodeForQueryValue(
        _ src: UnsafeBufferPointer<UInt8>,
        into dst: UnsafeMutableBufferPointer<UInt8>
    ) -> Int? {
        var written = 0
        for byte in src {
            if URLCharacterSet.unreserved.contains(byte) {
                guard written < dst.count else { return nil }
                dst[written] = byte
                written += 1
            } else {
                guard dst.count - written >= 3 else { return nil }
                dst[written] = UInt8(ascii: "%")
                dst[written + 1] = hexDigit(byte &>> 4)
                dst[written + 2] = hexDigit(byte & 0x0F)
                written += 3
            }
        }
        return written
    }

    /// Percent-encodes `string` for use as a query value (the rewrite engine's `$$` prefix):
    /// everything except `ALPHA DIGIT - . _ ~` becomes `%HH` of its UTF-8 bytes.
    ///
    /// ```swift
    /// PercentEncoding.percentEncodedForQueryValue("a b&c=é") // "a%20b%26c%3D%C3%A9"
    /// ```
    package static func percentEncodedForQueryValue(_ string: String) -> String {
        var utf8 = string
        return utf8.withUTF8 { src -> String in
            var encodedCount = 0
            for byte in src {
                encodedCount += URLCharacterSet.unreserved.contains(byte) ? 1 : 3
            }
            guard encodedCount != src.count else { return string }
            return String(unsafeUninitializedCapacity: encodedCount) { dst in
                encodeForQueryValue(src, into: dst) ?? 0
            }
        }
    }

    /// Describes why `src` does not decode, for error messages; `nil` when it decodes.
    ///
    /// The offset is that of the bad `%` escape, or of the first byte (or escape) of the first
    /// sequence that is not valid UTF-8 once decoded. Slower than ``decode(_:into:plusAsSpace:)``;
    /// call it only after that failed.
    static func decodingFailure(in src: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool) -> URLSyntaxError? {
        var decoded: [UInt8] = []
        var sourceOffsets: [Int] = []
        decoded.reserveCapacity(src.count)
        sourceOffsets.reserveCapacity(src.count)
        var read = 0
        while read < src.count {
            let byte = src[read]
            sourceOffsets.append(read)
            if byte == UInt8(ascii: "%") {
                guard isValidEscape(src, at: read) else {
                    return URLSyntaxError(message: invalidEscapeMessage(src, at: read), byteOffset: read)
                }
                decoded.append(hexValue(src[read + 1]) &<< 4 | hexValue(src[read + 2]))
                read += 3
            } else {
                decoded.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                read += 1
            }
        }
        let invalid = decoded.withUnsafeBufferPointer { UTF8Validation.firstInvalidIndex(in: $0) }
        guard let invalid else { return nil }
        return URLSyntaxError(message: "invalid UTF-8 after percent-decoding", byteOffset: sourceOffsets[invalid])
    }

    /// The message for a `%` at `src[index]` that is not followed by two hexadecimal digits,
    /// quoting the `%` and up to two printable ASCII characters after it: `invalid percent-escape '%G1'`.
    static func invalidEscapeMessage(_ src: UnsafeBufferPointer<UInt8>, at index: Int) -> String {
        var quoted = "%"
        var next = index + 1
        while next < src.count, next <= index + 2, (0x21...0x7E).contains(src[next]) {
            quoted.unicodeScalars.append(Unicode.Scalar(src[next]))
            next += 1
        }
        return "invalid percent-escape '\(quoted)'"
    }
}
