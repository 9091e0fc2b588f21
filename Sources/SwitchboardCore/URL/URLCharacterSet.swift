/// A set of ASCII bytes as two 64-bit masks, for branch-light membership tests in the
/// URL scanners and the route pattern parser.
///
/// The constants are written out as literals so that no lazy initialisation runs on the hot
/// path; a test rebuilds each of them from its RFC 3986 definition.
struct URLCharacterSet: Sendable, Hashable {
    /// Bytes 0x00–0x3F: bit `b` is byte `b`.
    let low: UInt64
    /// Bytes 0x40–0x7F: bit `b` is byte `0x40 + b`.
    let high: UInt64

    /// Whether the ASCII byte `byte` is in the set; `false` for every byte >= 0x80.
    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        if byte < 64 {
            return low & (1 &<< UInt64(byte)) != 0
        }
        if byte < 128 {
            return high & (1 &<< UInt64(byte &- 64)) != 0
        }
        return false
    }

    /// `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"`.
    static let unreserved = URLCharacterSet(low: 0x03FF_6000_0000_0000, high: 0x47FF_FFFE_87FF_FFFE)
    /// A host (`reg-name`) without its escapes: unreserved and sub-delims.
    static let host = URLCharacterSet(low: 0x2BFF_7FD2_0000_0000, high: 0x47FF_FFFE_87FF_FFFE)
    /// `userinfo` without its escapes: unreserved, sub-delims and `:`.
    static let userinfo = URLCharacterSet(low: 0x2FFF_7FD2_0000_0000, high: 0x47FF_FFFE_87FF_FFFE)
    /// A path without its escapes: `pchar` (unreserved, sub-delims, `:`, `@`) and `/`.
    static let path = URLCharacterSet(low: 0x2FFF_FFD2_0000_0000, high: 0x47FF_FFFE_87FF_FFFF)
    /// A query or fragment without its escapes: `pchar`, `/` and `?`.
    static let query = URLCharacterSet(low: 0xAFFF_FFD2_0000_0000, high: 0x47FF_FFFE_87FF_FFFF)
    /// The characters after the first one of a scheme: ALPHA, DIGIT, `+`, `-`, `.`.
    static let scheme = URLCharacterSet(low: 0x03FF_6800_0000_0000, high: 0x07FF_FFFE_07FF_FFFE)
    /// `HEXDIG`, either case.
    static let hexDigit = URLCharacterSet(low: 0x03FF_0000_0000_0000, high: 0x0000_007E_0000_007E)
    /// A route pattern's parameter name: ALPHA, DIGIT, `_`, `-`.
    static let patternName = URLCharacterSet(low: 0x03FF_2000_0000_0000, high: 0x07FF_FFFE_87FF_FFFE)
    /// A static segment of a plain route pattern (``PatternParser/isPlainPath(_:)``): a
    /// parameter name's bytes and `.~!$&'+,;=@:`.
    static let plainPatternSegment = URLCharacterSet(low: 0x2FFF_78D2_0000_0000, high: 0x47FF_FFFE_87FF_FFFF)
}
