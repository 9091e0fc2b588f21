import Testing

@testable import SwitchboardCore

@Suite("PercentEncoding")
struct PercentEncodingTests {
    @Test(arguments: [
        ("", false, ""),
        ("abc", false, "abc"),
        ("%41%42c", false, "ABc"),
        ("%c3%a9", false, "é"),
        ("%C3%A9t%C3%A9", false, "été"),
        ("a+b", false, "a+b"),
        ("a+b", true, "a b"),
        ("a%2Bb", true, "a+b"),
        ("a%20b", false, "a b"),
        ("%2F", false, "/"),
        ("%25", false, "%"),
        ("%2525", false, "%25"),
        ("%00", false, "\u{0}"),
        ("商品", false, "商品"),
        ("%E5%95%86%E5%93%81", true, "商品"),
        ("caf%C3%A9+au+lait", true, "café au lait"),
    ])
    func decodes(_ encoded: String, _ plusAsSpace: Bool, _ decoded: String) {
        #expect(PercentEncoding.decode(encoded, plusAsSpace: plusAsSpace) == decoded)
    }

    @Test(arguments: [
        "%", "%4", "%G1", "%zz", "a%2", "%%41",
        "%FF", "%C3", "%C3%28", "%E5%95", "%C0%AF", "%ED%A0%80", "%F4%90%80%80", "%80", "%C3é",
    ])
    func refusesBadEscapesAndInvalidUTF8(_ encoded: String) {
        #expect(PercentEncoding.decode(encoded, plusAsSpace: false) == nil)
        #expect(PercentEncoding.decodeLeniently(encoded) == encoded)
    }

    @Test func decodesLenientlyWhenItCan() {
        #expect(PercentEncoding.decodeLeniently("a%20b+c") == "a b+c")
        #expect(PercentEncoding.decodeLeniently("a%20b+c", plusAsSpace: true) == "a b c")
        #expect(PercentEncoding.decodeLeniently("100%") == "100%")
    }

    @Test func decodesBytesWithoutAllocatingAndInPlace() {
        var buffer = Array("x%2Fy%C3%A9+".utf8)
        let count = buffer.withUnsafeMutableBufferPointer { bytes in
            PercentEncoding.decode(UnsafeBufferPointer(bytes), into: bytes, plusAsSpace: true)
        }
        #expect(count == 6)
        #expect(Array(buffer.prefix(6)) == Array("x/yé ".utf8))
    }

    @Test func byteDecoderRefusesAShortDestination() {
        let source = Array("abc".utf8)
        var destination = [UInt8](repeating: 0, count: 2)
        let count = source.withUnsafeBufferPointer { src in
            destination.withUnsafeMutableBufferPointer { dst in
                PercentEncoding.decode(src, into: dst, plusAsSpace: false)
            }
        }
        #expect(count == nil)
    }

    @Test(arguments: [
        ("abc", false, false),
        ("a+b", false, false),
        ("a+b", true, true),
        ("a%20", false, true),
    ])
    func needsDecoding(_ text: String, _ plusAsSpace: Bool, _ expected: Bool) {
        let result = Array(text.utf8).withUnsafeBufferPointer {
            PercentEncoding.needsDecoding($0, plusAsSpace: plusAsSpace)
        }
        #expect(result == expected)
    }

    @Test(arguments: [
        ("", ""),
        ("AZaz09-._~", "AZaz09-._~"),
        ("a b", "a%20b"),
        ("a+b", "a%2Bb"),
        ("a&b=c", "a%26b%3Dc"),
        ("/?#[]@", "%2F%3F%23%5B%5D%40"),
        ("!$'()*,;:", "%21%24%27%28%29%2A%2C%3B%3A"),
        ("100%", "100%25"),
        ("é", "%C3%A9"),
        ("商", "%E5%95%86"),
        ("\u{0}\u{7F}", "%00%7F"),
        ("https://m.example.com/p?x=1&y=2", "https%3A%2F%2Fm.example.com%2Fp%3Fx%3D1%26y%3D2"),
    ])
    func encodesForQueryValues(_ text: String, _ encoded: String) {
        #expect(PercentEncoding.percentEncodedForQueryValue(text) == encoded)
    }

    @Test func byteEncoderRefusesAShortDestination() {
        let source = Array("a b".utf8)
        var destination = [UInt8](repeating: 0, count: 4)
        let count = source.withUnsafeBufferPointer { src in
            destination.withUnsafeMutableBufferPointer { dst in
                PercentEncoding.encodeForQueryValue(src, into: dst)
            }
        }
        #expect(count == nil)
    }

    @Test(arguments: [
        ("abc%", false, 3, "invalid percent-escape '%'"),
        ("a%4/", false, 1, "invalid percent-escape '%4/'"),
        ("ab%FF", false, 2, "invalid UTF-8 after percent-decoding"),
        ("é%C3%A9%FF", false, 8, "invalid UTF-8 after percent-decoding"),
        ("é%A9", false, 2, "invalid UTF-8 after percent-decoding"),
        ("%C3+", true, 0, "invalid UTF-8 after percent-decoding"),
    ])
    func explainsWhyDecodingFailed(_ text: String, _ plusAsSpace: Bool, _ offset: Int, _ message: String) {
        let failure = Array(text.utf8).withUnsafeBufferPointer {
            PercentEncoding.decodingFailure(in: $0, plusAsSpace: plusAsSpace)
        }
        #expect(failure == URLSyntaxError(message: message, byteOffset: offset))
    }

    @Test func explainsNothingWhenDecodingSucceeds() {
        let failure = Array("a%20b".utf8).withUnsafeBufferPointer {
            PercentEncoding.decodingFailure(in: $0, plusAsSpace: false)
        }
        #expect(failure == nil)
    }
}
