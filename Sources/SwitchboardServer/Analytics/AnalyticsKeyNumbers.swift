/// Route or rule ids numbered in the order first counted, so that the fold counts into arrays.
///
/// An id is looked up by the bits of its `String` value first: the ids of one snapshot are the
/// same values on every answer (inline for short ids, one shared buffer for longer ones), so a
/// memo keyed by those bits finds most ids without hashing their text. The memo holds the
/// string it remembers, so its buffer cannot be freed and reused for other text while the bits
/// stand for it; a miss falls back to the dictionary keyed by the text.
struct AnalyticsKeyNumbers {
    /// The ids by number.
    private(set) var keys: [String] = []
    private var numbers: [String: Int] = [:]
    private var memoKeys = [String?](repeating: nil, count: Self.memoSize)
    private var memoNumbers = [Int](repeating: 0, count: Self.memoSize)

    private static let memoSize = 1_024

    /// The number of `key`, given it the first time it is seen.
    @inline(__always)
    mutating func number(of key: String) -> Int {
        let bits = unsafeBitCast(key, to: (UInt64, UInt64).self)
        let slot = Int(truncatingIfNeeded: ((bits.0 ^ bits.1) &* 0x9E37_79B9_7F4A_7C15) >> 54)
        if let remembered = memoKeys[slot], unsafeBitCast(remembered, to: (UInt64, UInt64).self) == bits {
            return memoNumbers[slot]
        }
        let number: Int
        if let known = numbers[key] {
            number = known
        } else {
            number = keys.count
            numbers[key] = number
            keys.append(key)
        }
        memoKeys[slot] = key
        memoNumbers[slot] = number
        return number
    }
}
