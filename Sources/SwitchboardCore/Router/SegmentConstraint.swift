/// A compiled ``ParameterConstraint``, checked against a decoded segment.
enum SegmentConstraint: Sendable {
    case int
    case uuid
    case regex(CompiledRegex)
    /// Stands in for a regex that failed to compile (never happens for parsed patterns).
    case regexNeverMatching

    init(_ constraint: ParameterConstraint) throws(RegexCompileError) {
        switch constraint {
        case .int: self = .int
        case .uuid: self = .uuid
        case .regex(let text): self = .regex(try CompiledRegex(text, wholeMatch: true))
        }
    }

    func accepts(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        check(bytes) == .matched
    }

    /// Whether the constraint accepts `bytes`, and for a regex, whether a PCRE2 limit decided
    /// (which counts as not accepted, and is counted).
    func check(_ bytes: UnsafeBufferPointer<UInt8>) -> CompiledRegex.WholeMatchResult {
        switch self {
        case .int: Self.isInt64(bytes) ? .matched : .notMatched
        case .uuid: Self.isUUID(bytes) ? .matched : .notMatched
        case .regex(let regex): regex.wholeMatch(bytes)
        case .regexNeverMatching: .notMatched
        }
    }

    /// Optional `-`, then digits, within the range of `Int64`.
    static func isInt64(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index = 1 }
        guard index < bytes.count else { return false }
        var magnitude: UInt64 = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return false }
            let (times, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(UInt64(digit))
            guard !overflow1, !overflow2 else { return false }
            magnitude = sum
            index += 1
        }
        return magnitude <= (negative ? UInt64(Int64.max) + 1 : UInt64(Int64.max))
    }

    /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, hexadecimal digits of either case.
    static func isUUID(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                let isHex = (byte >= 48 && byte <= 57) || (byte | 0x20 >= 97 && byte | 0x20 <= 102)
                guard isHex else { return false }
            }
        }
        return true
    }
}
