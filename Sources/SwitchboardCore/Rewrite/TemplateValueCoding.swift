/// The two value transforms of rewrite templates: `$$` (percent-encode for a query value)
/// and `$#` (percent-decode).
enum TemplateValueCoding {
    /// Appends `value` percent-encoded for use as a query value: every byte except the RFC 3986
    /// unreserved characters `A-Z a-z 0-9 - . _ ~` becomes `%XX` (uppercase hex, UTF-8 bytes).
    static func appendQueryEncoded(_ value: some Collection<UInt8>, to output: inout [UInt8]) {
        for byte in value {
            if isUnreserved(byte) {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            }
        }
    }

    /// Appends `value` percent-decoded (`+` stays `+`). When the value holds a bad escape
    /// (`%` not followed by two hex digits) or decodes to invalid UTF-8, it is appended
    /// unchanged.
    static func appendPercentDecoded(_ value: some Collection<UInt8>, to output: inout [UInt8]) {
        guard value.contains(UInt8(ascii: "%")) else {
            output.append(contentsOf: value)
            return
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(value.count)
        var index = value.startIndex
        while index != value.endIndex {
            let byte = value[index]
            value.formIndex(after: &index)
            guard byte == UInt8(ascii: "%") else {
                decoded.append(byte)
                continue
            }
            guard index != value.endIndex, let high = PercentEncoding.hexDigitValue(value[index]) else {
                output.append(contentsOf: value)
                return
            }
            value.formIndex(after: &index)
            guard index != value.endIndex, let low = PercentEncoding.hexDigitValue(value[index]) else {
                output.append(contentsOf: value)
                return
            }
            value.formIndex(after: &index)
            decoded.append(high << 4 | low)
        }
        if String(validating: decoded, as: UTF8.self) == nil {
            output.append(contentsOf: value)
        } else {
            output.append(contentsOf: decoded)
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

}
