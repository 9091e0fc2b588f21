extension JSONValue {
    /// The value of the JSON text `bytes` (UTF-8), or `nil` when it is not one JSON value.
    /// Objects keep their key order; numbers are read as doubles, as ``JSONWriter`` writes them.
    ///
    /// It reads what this package writes (``Resolution/json`` is its body read back), so a
    /// value has one writer. `RouteFileJSONReader` cannot serve here: it gives up on what YAML
    /// would read otherwise (`\u0000`, line separators), which a decoded param can hold.
    package init?(parsing bytes: [UInt8]) {
        var parser = JSONTextParser(bytes: bytes)
        guard let value = parser.value(depth: 0), parser.atEnd else { return nil }
        self = value
    }
}

/// A recursive-descent reader of RFC 8259 JSON text.
private struct JSONTextParser {
    let bytes: [UInt8]
    var index = 0
    /// Deeper nesting is refused rather than risking the stack.
    static let maximumDepth = 512

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    var atEnd: Bool {
        mutating get {
            skipSpace()
            return index == bytes.count
        }
    }

    mutating func value(depth: Int) -> JSONValue? {
        guard depth < Self.maximumDepth else { return nil }
        skipSpace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            var members: [(key: String, value: JSONValue)] = []
            skipSpace()
            if take(UInt8(ascii: "}")) { return .object(members) }
            repeat {
                skipSpace()
                guard let key = string(), take(UInt8(ascii: ":")), let value = value(depth: depth + 1) else { return nil }
                members.append((key, value))
                skipSpace()
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "}")) ? .object(members) : nil
        case UInt8(ascii: "["):
            index += 1
            var values: [JSONValue] = []
            skipSpace()
            if take(UInt8(ascii: "]")) { return .array(values) }
            repeat {
                guard let value = value(depth: depth + 1) else { return nil }
                values.append(value)
                skipSpace()
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "]")) ? .array(values) : nil
        case UInt8(ascii: "\""):
            return string().map(JSONValue.string)
        case UInt8(ascii: "t"):
            return word("true") ? .bool(true) : nil
        case UInt8(ascii: "f"):
            return word("false") ? .bool(false) : nil
        case UInt8(ascii: "n"):
            return word("null") ? .null : nil
        default:
            return number()
        }
    }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func word(_ text: String) -> Bool {
        let expected = Array(text.utf8)
        guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected else {
            return false
        }
        index += expected.count
        return true
    }

    private mutating func number() -> JSONValue? {
        let start = index
        while index < bytes.count, "+-.0123456789eE".utf8.contains(bytes[index]) { index += 1 }
        guard index > start, let number = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else { return nil }
        return .number(number)
    }

    private mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        var output: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: output, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(escape)
                case UInt8(ascii: "n"): output.append(0x0A)
                case UInt8(ascii: "r"): output.append(0x0D)
                case UInt8(ascii: "t"): output.append(0x09)
                case UInt8(ascii: "b"): output.append(0x08)
                case UInt8(ascii: "f"): output.append(0x0C)
                case UInt8(ascii: "u"):
                    guard var scalar = hexQuad() else { return nil }
                    if (0xD800..<0xDC00).contains(scalar), word("\\u"), let low = hexQuad(), (0xDC00..<0xE000).contains(low) {
                        scalar = 0x10000 + (scalar - 0xD800) << 10 + (low - 0xDC00)
                    }
                    output.append(contentsOf: String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
                default:
                    return nil
                }
            default:
                output.append(byte)
            }
        }
        return nil
    }

    private mutating func hexQuad() -> UInt32? {
        guard bytes.count - index >= 4, let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
        else { return nil }
        index += 4
        return value
    }
}
