import SwitchboardTestSupport
import Testing

@testable import SwitchboardCore

/// JSON string literals: the writer tests eight bytes at a time, so escapes are checked at
/// every position of a word and across words, against an escaper written byte by byte.
struct JSONWriterStringTests {
    /// The expected literal: `"`, `\`, and the control characters and DEL escaped; every other
    /// byte (non-ASCII included) as it is.
    static func reference(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): out += Array(#"\""#.utf8)
            case UInt8(ascii: "\\"): out += Array(#"\\"#.utf8)
            case 0x0A: out += Array(#"\n"#.utf8)
            case 0x0D: out += Array(#"\r"#.utf8)
            case 0x09: out += Array(#"\t"#.utf8)
            case 0x08: out += Array(#"\b"#.utf8)
            case 0x0C: out += Array(#"\f"#.utf8)
            case 0..<0x20, 0x7F:
                let hex = Array("0123456789abcdef".utf8)
                out += Array(#"\u00"#.utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: out.append(byte)
            }
        }
        return out + [UInt8(ascii: "\"")]
    }

    @Test func everySpecialByteAtEveryPosition() {
        let specials: [UInt8] = [0x00, 0x01, 0x08, 0x09, 0x0A, 0x1F, 0x22, 0x5C, 0x7F]
        for length in 0..<20 {
            for position in 0..<max(length, 1) {
                for special in specials {
                    var bytes = Array(repeating: UInt8(ascii: "a"), count: length)
                    if position < length { bytes[position] = special }
                    var writer = JSONWriter()
                    bytes.withUnsafeBufferPointer { writer.writeString(utf8: $0) }
                    #expect(writer.bytes == Self.reference(bytes), "\(bytes)")
                }
            }
        }
    }

    @Test func randomBytesNearTheSpecialOnes() {
        var random = SplitMix(seed: 42)
        // Bytes next to the ones that need an escape, where a borrow between bytes would show.
        let alphabet: [UInt8] = [0x00, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0xA2, 0xDC, 0xFF, 0x61]
        for _ in 0..<2000 {
            let bytes = (0..<Int(random.next() % 40)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            var writer = JSONWriter()
            bytes.withUnsafeBufferPointer { writer.writeString(utf8: $0) }
            #expect(writer.bytes == Self.reference(bytes), "\(bytes)")
        }
    }

    /// Strings and syntax appended one after another to one writer that starts small (and to a
    /// buffer taken over with its content), so that the output grows across appends.
    @Test func appendsGrowOneBuffer() {
        var random = SplitMix(seed: 7)
        let alphabet: [UInt8] = [0x61, 0x62, 0x22, 0x0A, 0x7F, 0xC3, 0xA9, 0x2F]
        var buffer = Array("prefix".utf8)
        var writer = JSONWriter(appendingTo: &buffer)
        var small = JSONWriter(capacity: 1)
        var expected = Array("prefix".utf8)
        for _ in 0..<300 {
            let bytes = (0..<Int(random.next() % 30)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            bytes.withUnsafeBufferPointer { writer.writeString(utf8: $0) }
            bytes.withUnsafeBufferPointer { small.writeString(utf8: $0) }
            writer.writeSyntax(",")
            small.writeSyntax(",")
            expected += Self.reference(bytes) + [UInt8(ascii: ",")]
        }
        writer.finish(into: &buffer)
        #expect(buffer == expected)
        #expect(small.bytes == Array(expected.dropFirst(6)))
    }
}
