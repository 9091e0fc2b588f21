extension URLScanner {
    /// The URL component being scanned, to name it in error messages.
    enum Component {
        case scheme, host, ipv6, ipFuture, port, path, query, fragment

        /// The component's name in a sentence ("in the host").
        var name: String {
            switch self {
            case .scheme: "the scheme"
            case .host: "the host"
            case .ipv6: "an IPv6 address"
            case .ipFuture: "an IPvFuture address"
            case .port: "the port"
            case .path: "the path"
            case .query: "the query"
            case .fragment: "the fragment"
            }
        }
    }

    /// The error for the byte at `index`, which `component` does not allow.
    ///
    /// Characters no URL may contain (space, controls, `"<>\^`{|}`, a second `#`, stray
    /// brackets) get a message that says so and how to encode them; others name the component.
    func disallowedCharacter(at index: Int, in component: Component) -> URLSyntaxError {
        guard index < bytes.count else {
            return URLSyntaxError(message: "unexpected end of URL in \(component.name)", byteOffset: index)
        }
        let byte = bytes[index]
        let message: String
        switch byte {
        case UInt8(ascii: " "):
            message = "space is not allowed in a URL; percent-encode it as %20"
        case 0x00..<0x20, 0x7F:
            message =
                "control character \(Self.codePoint(byte)) is not allowed in a URL; "
                + "percent-encode it as \(Self.escape(byte))"
        case 0xC2 where index + 1 < bytes.count && bytes[index + 1] < 0xA0:
            let second = bytes[index + 1]
            message =
                "control character \(Self.codePoint(second)) is not allowed in a URL; "
                + "percent-encode it as \(Self.escape(byte))\(Self.escape(second))"
        case 0x80...:
            message = "non-ASCII characters are not allowed in \(component.name)"
        case UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\\"), UInt8(ascii: "^"),
            UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"):
            message =
                "character '\(Self.ascii(byte))' is not allowed in a URL; "
                + "percent-encode it as \(Self.escape(byte))"
        case UInt8(ascii: "#") where component == .fragment:
            message = "a second '#' is not allowed in a URL; percent-encode it as %23"
        case UInt8(ascii: "["), UInt8(ascii: "]"):
            message =
                "'\(Self.ascii(byte))' is only allowed around an IPv6 address in the host; "
                + "percent-encode it as \(Self.escape(byte))"
        default:
            switch component {
            case .scheme where index == 0:
                message = "a scheme must start with a letter, not '\(Self.ascii(byte))'"
            case .scheme:
                message =
                    "invalid character '\(Self.ascii(byte))' in the scheme; a scheme is a letter "
                    + "followed by letters, digits, '+', '-' or '.'"
            case .port:
                message = "invalid character '\(Self.ascii(byte))' in the port; a port is decimal digits"
            case .ipv6, .ipFuture:
                message = "invalid character '\(Self.ascii(byte))' in \(component.name)"
            case .host, .path, .query, .fragment:
                message =
                    "character '\(Self.ascii(byte))' is not allowed in \(component.name); "
                    + "percent-encode it as \(Self.escape(byte))"
            }
        }
        return URLSyntaxError(message: message, byteOffset: index)
    }

    /// The ASCII byte as a one-character string.
    private static func ascii(_ byte: UInt8) -> String {
        String(Character(Unicode.Scalar(byte)))
    }

    /// `%HH` for `byte`.
    private static func escape(_ byte: UInt8) -> String {
        "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
    }

    /// `U+00HH` for the code point `value` (< 0x100).
    private static func codePoint(_ value: UInt8) -> String {
        "U+00" + String(value, radix: 16, uppercase: true).leftPadded(to: 2)
    }
}

extension String {
    /// The string with `0`s in front up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
