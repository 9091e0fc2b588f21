import Testing

@testable import SwitchboardCore

@Suite("UTF8Validation")
struct UTF8ValidationTests {
    @Test(
        arguments: [
            ([], nil),
            ([0x41, 0x7F], nil),
            ([0xC3, 0xA9], nil),
            ([0xE5, 0x95, 0x86], nil),
            ([0xF0, 0x9F, 0x98, 0x80], nil),
            ([0xF4, 0x8F, 0xBF, 0xBF], nil),
            ([0xEF, 0xBF, 0xBF], nil),
            ([0x41, 0x80], 1),
            ([0xC0, 0xAF], 0),
            ([0xC1, 0xBF], 0),
            ([0xE0, 0x80, 0xAF], 0),
            ([0xED, 0xA0, 0x80], 0),
            ([0xF0, 0x80, 0x80, 0xAF], 0),
            ([0xF4, 0x90, 0x80, 0x80], 0),
            ([0xF5, 0x80, 0x80, 0x80], 0),
            ([0xFF], 0),
            ([0x41, 0xC3], 1),
            ([0xE5, 0x95], 0),
            ([0xE5, 0x95, 0x41], 0),
            ([0x41, 0xC3, 0xA9, 0xC3, 0x41], 3),
        ] as [([UInt8], Int?)])
    func findsTheFirstIllFormedSequence(_ bytes: [UInt8], _ expected: Int?) {
        #expect(bytes.withUnsafeBufferPointer { UTF8Validation.firstInvalidIndex(in: $0) } == expected)
    }

    @Test func agreesWithTheStandardLibraryOnEveryTwoByteSequence() {
        for first in 0...255 {
            for second in 0...255 {
                let bytes: [UInt8] = [UInt8(first), UInt8(second)]
                let valid = bytes.withUnsafeBufferPointer { UTF8Validation.firstInvalidIndex(in: $0) } == nil
                let reference = String(validating: bytes, as: UTF8.self) != nil
                #expect(valid == reference, "\(bytes)")
            }
        }
    }
}
