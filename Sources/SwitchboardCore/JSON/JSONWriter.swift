/// Writes compact JSON into a byte buffer, without Foundation: responses are built on the
/// request path.
package struct JSONWriter: Sendable {
    /// The bytes written so far.
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// The output as a string.
    package var string: String { String(decoding: bytes, as: UTF8.self) }

    package mutating func write(_ value: JSONValue) {
        switch value {
        case .null: writeRaw("null")
        case .bool(let flag): writeRaw(flag ? "true" : "false")
        case .number(let number): writeNumber(number)
        case .string(let text): writeString(text)
        case .array(let values):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                writeString(member.key)
                bytes.append(UInt8(ascii: ":"))
                write(member.value)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Appends bytes that are already valid JSON.
    package mutating func writeRaw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    package mutating func writeNumber(_ number: Double) {
        guard number.isFinite else {
            writeRaw("null")
            return
        }
        if number == number.rounded(.towardZero), abs(number) < 1e15 {
            writeRaw(String(Int64(number)))
        } else {
            writeRaw(String(number))
        }
    }

    /// Writes a JSON string literal, escaping quotes, backslashes and control characters.
    package mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
            case 0x0A: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "t"))
            case 0x08: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "f"))
            case 0x00..<0x20, 0x7F:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: "\\u00".utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

extension JSONValue {
    /// Compact JSON text.
    public var jsonText: String {
        var writer = JSONWriter()
        writer.write(self)
        return writer.string
    }
}
