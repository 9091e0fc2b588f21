/// Writes compact JSON into a byte buffer, without Foundation: responses are built on the
/// request path.
package struct JSONWriter: Sendable {
    /// The bytes written so far.
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// A writer that appends to `buffer`, taking it over (`buffer` is left empty until
    /// ``finish(into:)`` gives it back), so that its storage is written in place.
    package init(appendingTo buffer: inout [UInt8]) {
        bytes = buffer
        buffer = []
    }

    /// Hands what was written, with the storage, to `buffer`.
    package mutating func finish(into buffer: inout [UInt8]) {
        buffer = bytes
        bytes = []
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

    /// Appends bytes that are already valid JSON, copied as one block.
    package mutating func writeJSON(_ json: UnsafeBufferPointer<UInt8>) {
        appendBytes(json)
    }

    /// Appends a fixed piece of JSON syntax (`{"matched":true,"url":`), copied as one block.
    package mutating func writeSyntax(_ text: StaticString) {
        text.withUTF8Buffer { appendBytes($0) }
    }

    package mutating func writeNumber(_ number: Double) {
        guard number.isFinite else {
            writeRaw("null")
            return
        }
        // A whole number within Int64 is written as an integer (no `.0`, no exponent), so that
        // a client reading an integer gets one.
        if number == number.rounded(.towardZero), abs(number) < 0x1p63 {
            writeRaw(String(Int64(number)))
        } else {
            writeRaw(String(number))
        }
    }

    /// The number of bytes written so far.
    package var count: Int { bytes.count }

    /// Forgets what was written, keeping the buffer's capacity, so that one writer serves
    /// request after request without allocating.
    package mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Drops what was written after the first `count` bytes.
    package mutating func truncate(to count: Int) {
        bytes.removeLast(bytes.count - count)
    }

    /// Writes a JSON string literal, escaping quotes, backslashes and control characters.
    package mutating func writeString(_ text: String) {
        // The read-only view needs no mutable copy of the string (`withUTF8` is mutating);
        // it is available for native and small strings, which is every string here.
        let written: Void? = text.utf8.withContiguousStorageIfAvailable { writeString(utf8: $0) }
        if written == nil {
            var text = text
            text.withUTF8 { writeString(utf8: $0) }
        }
    }

    /// Writes the UTF-8 bytes `utf8` as a JSON string literal, escaped like ``writeString(_:)``.
    package mutating func writeString(utf8: UnsafeBufferPointer<UInt8>) {
        guard Self.containsEscape(utf8) else {
            // The common string: quotes and content in one copy.
            let count = utf8.count
            appendUninitialized(count + 2) { start in
                start[0] = UInt8(ascii: "\"")
                if let source = utf8.baseAddress { UnsafeMutableRawPointer(start + 1).copyMemory(from: source, byteCount: count) }
                start[count + 1] = UInt8(ascii: "\"")
            }
            return
        }
        bytes.append(UInt8(ascii: "\""))
        writeStringContent(utf8)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Whether some byte of `utf8` needs an escape in a JSON string.
    private static func containsEscape(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = utf8.count
        var index = 0
        if let base = UnsafeRawPointer(utf8.baseAddress) {
            while index + 8 <= count {
                if anyNeedsEscape(base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) { return true }
                index += 8
            }
        }
        while index < count {
            if needsEscape(utf8[index]) { return true }
            index += 1
        }
        return false
    }

    /// Appends `source` with one capacity check and one `memcpy`: `Array.append(contentsOf:)`
    /// copies through the generic sequence path, element by element.
    @inline(__always)
    private mutating func appendBytes(_ source: UnsafeBufferPointer<UInt8>) {
        guard let base = source.baseAddress, !source.isEmpty else { return }
        appendUninitialized(source.count) { UnsafeMutableRawPointer($0).copyMemory(from: base, byteCount: source.count) }
    }

    /// Grows the output by `count` bytes (more than 0), which `fill` writes from the pointer
    /// it is given.
    @inline(__always)
    private mutating func appendUninitialized(_ count: Int, _ fill: (UnsafeMutablePointer<UInt8>) -> Void) {
        bytes.append(addingCapacity: count) { span in
            span.withUnsafeMutableBufferPointer { buffer, initialized in
                guard let start = buffer.baseAddress else { return }
                fill(start)
                initialized = count
            }
        }
    }

    /// Opens a string literal whose content is written piece by piece with
    /// ``writeStringContent(_:)``; ``closeString()`` ends it.
    package mutating func openString() {
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends fixed text that needs no escape inside a string literal.
    package mutating func writeSyntaxInString(_ text: StaticString) {
        text.withUTF8Buffer { appendBytes($0) }
    }

    /// Ends a string literal opened with ``openString()``.
    package mutating func closeString() {
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes `utf8` escaped, inside a string literal.
    package mutating func writeStringContent(_ utf8: UnsafeBufferPointer<UInt8>) {
        // Copy runs of bytes that need no escape in one append; escape the rest one by one.
        // Eight bytes are tested at a time; a word with a byte to escape is walked byte by byte.
        let count = utf8.count
        var runStart = 0
        var index = 0
        if let base = UnsafeRawPointer(utf8.baseAddress) {
            while index + 8 <= count {
                if Self.anyNeedsEscape(base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                    for position in index..<index + 8 where Self.needsEscape(utf8[position]) {
                        appendBytes(UnsafeBufferPointer(rebasing: utf8[runStart..<position]))
                        appendEscaped(utf8[position])
                        runStart = position + 1
                    }
                }
                index += 8
            }
        }
        while index < count {
            if Self.needsEscape(utf8[index]) {
                appendBytes(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                appendEscaped(utf8[index])
                runStart = index + 1
            }
            index += 1
        }
        appendBytes(UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
    }

    /// Whether a JSON string must escape `byte`: a control character, DEL, `"` or `\`.
    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Whether one of the eight bytes of `word` needs an escape (``needsEscape(_:)``). Exact: the
    /// borrows of the subtractions reach a higher byte only when a lower one already matched.
    @inline(__always)
    private static func anyNeedsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        func hasByteBelow(_ word: UInt64, _ limit: UInt64) -> Bool { (word &- ones &* limit) & ~word & highBits != 0 }
        func hasByte(_ value: UInt64) -> Bool { hasByteBelow(word ^ (ones &* value), 1) }
        return hasByteBelow(word, 0x20) || hasByte(0x22) || hasByte(0x5C) || hasByte(0x7F)
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
        case 0x0A: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "t"))
        case 0x08: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "f"))
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: "\\u00".utf8)
            bytes.append(hex[Int(byte >> 4)])
            bytes.append(hex[Int(byte & 0x0F)])
        }
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
