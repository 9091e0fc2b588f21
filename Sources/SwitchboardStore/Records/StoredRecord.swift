/// The framing of every record in the store's files (and PostgreSQL rows): one line,
/// `<length> <crc32> <payload>\n`, where `length` is the payload's size in bytes (decimal),
/// `crc32` its CRC-32 (8 lowercase hex digits), and `payload` one line of JSON.
///
/// A crash while a record is appended leaves at most a prefix of it, or (after a power loss)
/// a block of garbage: either way its length or its checksum is wrong, and it is told apart
/// from a whole record without trusting anything in it.
///
/// ```
/// 25 648dc51d {"version":3,"history":2}
/// ```
enum StoredRecord {
    /// The most a record may announce; a length above it is garbage, not a record.
    static let maximumLength = 1 << 30

    /// The framed bytes of `payload` (one line of JSON: it must hold no newline).
    static func frame(_ payload: String) -> [UInt8] {
        let bytes = Array(payload.utf8)
        let checksum = String(CRC32.checksum(bytes), radix: 16)
        var framed = Array("\(bytes.count) \(String(repeating: "0", count: 8 - checksum.count))\(checksum) ".utf8)
        framed.reserveCapacity(framed.count + bytes.count + 1)
        framed += bytes
        framed.append(UInt8(ascii: "\n"))
        return framed
    }

    /// The records at the start of `bytes`, in order, each as its payload's byte range, and
    /// where the whole records end. Reading stops at the first record that is incomplete or
    /// whose length or checksum is wrong: `end` is then its start.
    static func scan(_ bytes: UnsafeRawBufferPointer) -> (payloads: [Range<Int>], end: Int) {
        var payloads: [Range<Int>] = []
        var position = 0
        while position < bytes.count, let payload = record(at: position, in: bytes) {
            payloads.append(payload)
            position = payload.upperBound + 1
        }
        return (payloads, position)
    }

    /// The payload ranges of the whole, valid records that start a line after `start`, where a
    /// scan stopped: a crash leaves none there (only a prefix of the last record, or garbage),
    /// so one found means a record in the middle was damaged after it was written.
    static func wholeRecords(after start: Int, in bytes: UnsafeRawBufferPointer) -> [Range<Int>] {
        var payloads: [Range<Int>] = []
        var position = start + 1
        while position < bytes.count {
            guard bytes[position - 1] == UInt8(ascii: "\n") else {
                position += 1
                continue
            }
            if let payload = record(at: position, in: bytes) {
                payloads.append(payload)
                position = payload.upperBound + 1
            } else {
                position += 1
            }
        }
        return payloads
    }

    /// The payload range of the whole, valid record at `start`, or `nil`.
    private static func record(at start: Int, in bytes: UnsafeRawBufferPointer) -> Range<Int>? {
        var index = start
        var length = 0
        while index < bytes.count, index - start < 11, let digit = Self.digit(bytes[index]) {
            length = length * 10 + digit
            index += 1
        }
        guard index > start, index < bytes.count, bytes[index] == UInt8(ascii: " "), length <= maximumLength else { return nil }
        index += 1
        var checksum: UInt32 = 0
        for _ in 0..<8 {
            guard index < bytes.count, let value = hexDigit(bytes[index]) else { return nil }
            checksum = checksum << 4 | UInt32(value)
            index += 1
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: " ") else { return nil }
        let payload = (index + 1)..<(index + 1 + length)
        guard payload.upperBound < bytes.count, bytes[payload.upperBound] == UInt8(ascii: "\n"),
            CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[payload])) == checksum
        else { return nil }
        return payload
    }

    private static func digit(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
