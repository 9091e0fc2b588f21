import Testing

@testable import SwitchboardHTTP

@Suite("The request target's byte scan")
struct RequestTargetScanTests {
    /// The rule the word-at-a-time scan must give, one byte at a time.
    private static func reference(_ bytes: [UInt8]) -> Bool {
        bytes.contains { $0 <= 0x20 || $0 == 0x7F }
    }

    @Test("every byte value at every position of targets up to 17 bytes agrees with a byte-at-a-time scan")
    func everyByteAtEveryPosition() {
        // Fillers around the probe: plain ASCII, and bytes of 0x80 and above, which must not
        // be mistaken for controls.
        for filler in [UInt8(ascii: "a"), 0x80] {
            for length in 1...17 {
                for position in 0..<length {
                    for probe in UInt8.min...UInt8.max {
                        var bytes = [UInt8](repeating: filler, count: length)
                        bytes[position] = probe
                        let text = String(decoding: bytes, as: UTF8.self)
                        let expected = Self.reference(Array(text.utf8))
                        guard HTTPRequestAssembler.containsSpaceOrControl(text) == expected else {
                            Issue.record("length \(length), byte \(probe) at \(position), filler \(filler)")
                            return
                        }
                    }
                }
            }
        }
    }

    @Test("a space, a control or DEL is found in a long target wherever it is")
    func longTargets() {
        let base = Array("/resolve?url=shop%3A%2F%2Fm11%2Fitem15%2F6995305%3Futm_source%3Dpush".utf8)
        #expect(!HTTPRequestAssembler.containsSpaceOrControl(String(decoding: base, as: UTF8.self)))
        for position in base.indices {
            for forbidden: UInt8 in [0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x20, 0x7F] {
                var bytes = base
                bytes[position] = forbidden
                #expect(HTTPRequestAssembler.containsSpaceOrControl(String(decoding: bytes, as: UTF8.self)))
            }
        }
    }
}
