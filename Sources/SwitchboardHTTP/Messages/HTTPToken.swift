/// The `token` of RFC 9110 §5.6.2: what a field name is made of.
enum HTTPToken {
    /// The `tchar` bytes below 64, one bit each (bit n is byte n): `!#$%&'*+-.` and digits.
    private static let lowMask: UInt64 = 0x03FF_6CFA_0000_0000
    /// The `tchar` bytes from 64 to 127 (bit n is byte 64 + n): letters and `^_`|~`.
    private static let highMask: UInt64 = 0x57FF_FFFF_C7FF_FFFE

    /// Whether `byte` is a `tchar`: a shift and a mask, since every field name of every
    /// request is checked byte by byte.
    @inline(__always)
    static func isTokenByte(_ byte: UInt8) -> Bool {
        let mask = byte < 64 ? lowMask : byte < 128 ? highMask : 0
        return (mask >> UInt64(byte & 63)) & 1 != 0
    }

    /// Whether `bytes` are a token: at least one byte, each a `tchar`.
    static func isToken(_ bytes: UnsafeRawBufferPointer) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy(isTokenByte)
    }
}
