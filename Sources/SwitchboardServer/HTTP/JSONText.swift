/// Minimal JSON text helpers for bodies the HTTP layer writes itself (error bodies).
package enum JSONText {
    /// `string` as a JSON string literal, quotes included (RFC 8259 §7).
    ///
    /// Escapes `"` and `\`, the control characters U+0000–U+001F (short forms where JSON
    /// has them), and U+2028/U+2029 so the text is also safe inside JavaScript.
    ///
    /// ```swift
    /// JSONText.quoted("a\"b\n")   // "\"a\\\"b\\n\""
    /// ```
    package static func quoted(_ string: String) -> String {
        var out = "\""
        out.reserveCapacity(string.utf8.count + 2)
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 {
                    out += "\\u00" + hexDigits(scalar.value >> 4) + hexDigits(scalar.value & 0xF)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
        return out
    }

    private static func hexDigits(_ nibble: UInt32) -> String {
        String(nibble, radix: 16, uppercase: false)
    }
}
