/// Validation of the contents of a bracketed host (`IP-literal`, RFC 3986 §3.2.2): an IPv6
/// address (RFC 4291 text form, optionally ending in a dotted IPv4 address) or `IPvFuture`.
///
/// Zone identifiers (RFC 6874, `%25eth0`) are not supported.
enum IPLiteral {
    /// Whether `bytes[start..<end]` is `IPv6address`: eight groups of 1–4 hex digits separated
    /// by `:`, at most one `::` standing for one or more zero groups, and optionally a dotted
    /// IPv4 address as the last two groups.
    static func isValidIPv6(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Bool {
        let colon = UInt8(ascii: ":")
        var index = start
        var groups = 0
        var compressed = false
        if end - index >= 2, bytes[index] == colon, bytes[index + 1] == colon {
            compressed = true
            index += 2
            if index == end { return true }
        }
        while true {
            let groupStart = index
            var digits = 0
            while index < end, digits < 5, PercentEncoding.hexValue(bytes[index]) < 16 {
                index += 1
                digits += 1
            }
            if index < end, bytes[index] == UInt8(ascii: ".") {
                guard isValidIPv4(bytes, from: groupStart, to: end) else { return false }
                groups += 2
                break
            }
            guard digits >= 1, digits <= 4 else { return false }
            groups += 1
            if index == end { break }
            guard bytes[index] == colon else { return false }
            index += 1
            if index < end, bytes[index] == colon {
                guard !compressed else { return false }
                compressed = true
                index += 1
                if index == end { break }
            } else if index == end {
                return false
            }
        }
        return compressed ? groups <= 7 : groups == 8
    }

    /// Whether `bytes[start..<end]` is `IPv4address`: four decimal octets 0–255 separated by
    /// `.`, without leading zeros.
    static func isValidIPv4(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Bool {
        var index = start
        var octets = 0
        while true {
            let octetStart = index
            var value = 0
            while index < end, index - octetStart < 3, bytes[index] >= UInt8(ascii: "0"),
                bytes[index] <= UInt8(ascii: "9")
            {
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            let digits = index - octetStart
            guard digits >= 1, value <= 255, digits == 1 || bytes[octetStart] != UInt8(ascii: "0") else {
                return false
            }
            octets += 1
            if index == end { return octets == 4 }
            guard octets < 4, bytes[index] == UInt8(ascii: ".") else { return false }
            index += 1
        }
    }

    /// Whether `bytes[start..<end]` is `IPvFuture`:
    /// `"v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`, the `v` in either case.
    static func isValidIPvFuture(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Bool {
        guard start < end, bytes[start] | 0x20 == UInt8(ascii: "v") else { return false }
        var index = start + 1
        while index < end, PercentEncoding.hexValue(bytes[index]) < 16 {
            index += 1
        }
        guard index > start + 1, index < end, bytes[index] == UInt8(ascii: ".") else { return false }
        index += 1
        guard index < end else { return false }
        while index < end {
            guard URLCharacterSet.userinfo.contains(bytes[index]) else { return false }
            index += 1
        }
        return true
    }
}
