/// Validation of UTF-8 byte sequences (the well-formed sequences of Unicode §3.9, table 3-7):
/// no overlong forms, no surrogates, nothing above U+10FFFF, no truncated sequences.
enum UTF8Validation {
    /// The index of the first byte of the first ill-formed sequence in `bytes`, or `nil` when
    /// all of `bytes` is well-formed UTF-8.
    static func firstInvalidIndex(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = bytes.count
        var index = 0
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var secondLow: UInt8 = 0x80
            var secondHigh: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF:
                length = 2
            case 0xE0:
                length = 3
                secondLow = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF:
                length = 3
            case 0xED:
                length = 3
                secondHigh = 0x9F
            case 0xF0:
                length = 4
                secondLow = 0x90
            case 0xF1...0xF3:
                length = 4
            case 0xF4:
                length = 4
                secondHigh = 0x8F
            default:
                return index
            }
            guard count - index >= length else { return index }
            let second = bytes[index + 1]
            guard second >= secondLow, second <= secondHigh else { return index }
            var next = index + 2
            while next < index + length {
                guard bytes[next] & 0xC0 == 0x80 else { return index }
                next += 1
            }
            index = next
        }
        return nil
    }
}
