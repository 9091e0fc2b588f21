/// A request's header fields in the order received, names and values kept as bytes in one
/// buffer: a request costs one allocation for its fields however many it has, and a field
/// becomes a `String` only when it is read. An app's HTTP client sends about ten fields, most
/// of which no endpoint reads (`User-Agent`, `Accept-Language`, `Authorization` on `/resolve`).
///
/// Names keep their case and are compared case-insensitively (ASCII, RFC 9110 §5.1); a
/// repeated field appears once per line it was sent on.
package struct HTTPHeaderFields: Sendable {
    /// Each field as its name's length and its value's length (the low and the high half of a
    /// little-endian `UInt64`), then the name's bytes, then the value's bytes.
    private var storage: [UInt8] = []
    /// How many fields there are.
    package private(set) var count = 0
    /// The bytes of every name and value together (the lengths that frame them not counted).
    package private(set) var byteCount = 0

    /// The bytes that frame each field: its two lengths.
    private static let lengthsSize = MemoryLayout<UInt64>.size

    /// No fields.
    package init() {}

    /// `fields` in their order.
    package init(_ fields: [HTTPRequest.Header]) {
        for field in fields { append(name: field.name, value: field.value) }
    }

    /// Every field as a name and a value, in order.
    package var all: [HTTPRequest.Header] {
        var fields: [HTTPRequest.Header] = []
        fields.reserveCapacity(count)
        forEach { name, value in
            fields.append((name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self)))
            return true
        }
        return fields
    }

    /// Makes room for `bytes` more bytes of names and values in `fields` more fields.
    mutating func reserveCapacity(bytes: Int, fields: Int) {
        storage.reserveCapacity(storage.count + bytes + fields * Self.lengthsSize)
    }

    /// Appends a field.
    package mutating func append(name: String, value: String) {
        var name = name
        var value = value
        name.withUTF8 { nameBytes in
            value.withUTF8 { valueBytes in append(name: UnsafeRawBufferPointer(nameBytes), value: UnsafeRawBufferPointer(valueBytes)) }
        }
    }

    /// Appends a field from its bytes (they are copied; a name is expected to be a token, a value
    /// UTF-8, and neither is checked here).
    ///
    /// Every field of every request goes through here, so the bytes go in as three typed
    /// buffers: an `UnsafeRawBufferPointer` takes the array's generic path, measured at 1.4–2.1×
    /// the time per field.
    mutating func append(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        // Both lengths fit in 32 bits: a request's head is bounded by the connection's memory.
        let lengths = UInt64(UInt32(truncatingIfNeeded: name.count)) | UInt64(UInt32(truncatingIfNeeded: value.count)) << 32
        withUnsafeBytes(of: lengths.littleEndian) { storage.append(contentsOf: $0.assumingMemoryBound(to: UInt8.self)) }
        storage.append(contentsOf: name.assumingMemoryBound(to: UInt8.self))
        storage.append(contentsOf: value.assumingMemoryBound(to: UInt8.self))
        count += 1
        byteCount += name.count + value.count
    }

    /// The value of the first field called `name`, or `nil`.
    package func first(named name: String) -> String? {
        var found: String?
        forEach(named: name) { value in
            found = String(decoding: value, as: UTF8.self)
            return false
        }
        return found
    }

    /// The values of every field called `name`, in order.
    package func all(named name: String) -> [String] {
        var values: [String] = []
        forEach(named: name) { value in
            values.append(String(decoding: value, as: UTF8.self))
            return true
        }
        return values
    }

    /// Whether a field is called `name`.
    package func contains(named name: String) -> Bool {
        var found = false
        forEach(named: name) { _ in
            found = true
            return false
        }
        return found
    }

    /// Calls `body` with the value of each field called `name`, in order, while it returns `true`.
    func forEach(named name: String, _ body: (UnsafeRawBufferPointer) -> Bool) {
        var name = name
        name.withUTF8 { wanted in
            let wanted = UnsafeRawBufferPointer(wanted)
            forEach { fieldName, value in
                guard Self.namesEqual(fieldName, wanted) else { return true }
                return body(value)
            }
        }
    }

    /// Calls `body` with the name and value of each field, in order, while it returns `true`.
    /// The buffers are valid only during the call.
    func forEach(_ body: (_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) -> Bool) {
        storage.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let lengths = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                let nameCount = Int(UInt32(truncatingIfNeeded: lengths))
                let valueCount = Int(UInt32(truncatingIfNeeded: lengths >> 32))
                let nameStart = offset + Self.lengthsSize
                let valueStart = nameStart + nameCount
                offset = valueStart + valueCount
                let name = UnsafeRawBufferPointer(rebasing: bytes[nameStart..<valueStart])
                let value = UnsafeRawBufferPointer(rebasing: bytes[valueStart..<offset])
                guard body(name, value) else { return }
            }
        }
    }

    /// Whether two field names are equal, ASCII letters compared without case.
    static func namesEqual(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Bool {
        guard left.count == right.count else { return false }
        for index in 0..<left.count where left[index] != right[index] {
            if asciiLowercased(left[index]) != asciiLowercased(right[index]) { return false }
        }
        return true
    }

    /// Whether the field name `bytes` is `name`, ASCII letters compared without case.
    static func name(_ bytes: UnsafeRawBufferPointer, is name: StaticString) -> Bool {
        namesEqual(bytes, UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }

    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) ? byte | 0x20 : byte
    }
}
