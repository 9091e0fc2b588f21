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

@Suite("The request target split at its first ?")
struct RawTargetSplitTests {
    /// The rule the split must give: the whole target checked as UTF-8, then cut at its first `?`.
    private static func reference(_ bytes: [UInt8]) -> HTTPRequestAssembler.RawTarget {
        guard let whole = String(validating: bytes, as: UTF8.self) else { return .notUTF8 }
        guard let mark = whole.firstIndex(of: "?") else { return .text(path: whole, query: nil) }
        return .text(path: String(whole[..<mark]), query: String(whole[whole.index(after: mark)...]))
    }

    private static func describe(_ target: HTTPRequestAssembler.RawTarget) -> String {
        switch target {
        case .text(let path, let query): "path \(Array(path.utf8)), query \(query.map { "\(Array($0.utf8))" } ?? "none")"
        case .missing: "missing"
        case .notUTF8: "not UTF-8"
        }
    }

    @Test("every target of up to five bytes over ASCII, ?, and whole, cut and stray UTF-8, alone and padded, agrees with the reference")
    func everySmallTarget() {
        // `ä` is C3 A4: alone, reversed or around a `?`, the bytes make every case of a
        // sequence cut by the mark; FF is never UTF-8.
        let alphabet: [UInt8] = [UInt8(ascii: "/"), UInt8(ascii: "a"), UInt8(ascii: "?"), 0xC3, 0xA4, 0xFF]
        var targets: [[UInt8]] = [[]]
        var all: [[UInt8]] = [[]]
        for _ in 1...5 {
            targets = targets.flatMap { prefix in alphabet.map { prefix + [$0] } }
            all += targets
        }
        // Alone, and padded so that each probe byte also falls inside an eight-byte word.
        let padded = all + all.map { Array("/ab".utf8) + $0 + Array("/cdefghi".utf8) }
        for bytes in padded {
            let split = bytes.withUnsafeBufferPointer { HTTPRequestAssembler.RawTarget(bytes: $0) }
            let expected = Self.reference(bytes)
            guard Self.describe(split) == Self.describe(expected) else {
                Issue.record("\(bytes): \(Self.describe(split)), expected \(Self.describe(expected))")
                return
            }
        }
    }
}
