/// Tells, from a URL's first bytes alone, that no rule can match it, when every rule's regex
/// starts with `^` and a literal (`^https://www\.shop\.com/…`, as most rewrite rules do): a
/// URL that begins with none of those literals needs no scan for the rules' literals and no
/// regex.
///
/// The first ``length`` bytes (the shortest of the literals) of each literal are hashed into a
/// sorted table; a URL whose first ``length`` bytes hash to none of them matches no rule. A hash
/// that is present only says that a rule may match (the usual candidates are then found).
struct AnchoredPrefixGate: Sendable {
    /// How many of a URL's first bytes are looked at.
    let length: Int
    /// The hashes of every rule's first ``length`` literal bytes, sorted, without repeats.
    private let hashes: [Int]

    /// The gate for rules whose patterns are `patterns`; `nil` when a pattern does not start
    /// with `^` and a literal (or there is none), so that any URL may match one of them.
    init?(patterns: some Collection<String>) {
        guard !patterns.isEmpty else { return nil }
        var prefixes: [[UInt8]] = []
        prefixes.reserveCapacity(patterns.count)
        for pattern in patterns {
            guard let prefix = Self.anchoredLiteral(of: pattern) else { return nil }
            prefixes.append(prefix)
        }
        // Longer keys tell more URLs apart; 32 bytes are plenty and keep the hash short.
        let length = min(32, prefixes.map(\.count).min() ?? 0)
        var hashes = prefixes.map { $0.withUnsafeBufferPointer { ByteHash.hash(UnsafeBufferPointer(rebasing: $0[..<length])) } }
        hashes.sort()
        var unique: [Int] = []
        unique.reserveCapacity(hashes.count)
        for hash in hashes where unique.last != hash { unique.append(hash) }
        self.length = length
        self.hashes = unique
    }

    /// Whether some rule may match `subject`: `false` only when none can.
    func mayMatch(_ subject: UnsafeBufferPointer<UInt8>) -> Bool {
        guard subject.count >= length else { return false }
        let hash = ByteHash.hash(UnsafeBufferPointer(rebasing: subject[..<length]))
        var low = 0
        var high = hashes.count
        while low < high {
            let middle = (low + high) / 2
            if hashes[middle] < hash { low = middle + 1 } else { high = middle }
        }
        return low < hashes.count && hashes[low] == hash
    }

    /// The literal that every match of `pattern` starts the subject with: the characters after
    /// a leading `^` up to the first one that is not plainly itself; `nil` when there is none.
    ///
    /// Conservative: a pattern with a `|` anywhere is refused (a top-level alternative would
    /// not be anchored), a character followed by a quantifier (`?`, `*`, `+`, `{`) is left out,
    /// and the literal stops at any other metacharacter or at an escape of a letter or digit
    /// (`\d`, `\x41`, `\Q`). An escaped punctuation character (`\.`, `\/`) is literal. The
    /// rules are compiled without multiline or extended mode, and a `(?…)` ends the literal, so
    /// `^` is the start of the subject and every other byte stands for itself.
    static func anchoredLiteral(of pattern: String) -> [UInt8]? {
        let bytes = Array(pattern.utf8)
        guard bytes.first == UInt8(ascii: "^"), !bytes.contains(UInt8(ascii: "|")) else { return nil }
        var literal: [UInt8] = []
        // Where the last character of `literal` starts, to drop it whole before a quantifier.
        var lastCharacterStart = 0
        var index = 1
        scan: while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "?"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "{"):
                literal.removeLast(literal.count - lastCharacterStart)
                break scan
            case UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: "."), UInt8(ascii: "("), UInt8(ascii: ")"),
                UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "}"):
                break scan
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count else { break scan }
                let escaped = bytes[index + 1]
                let isPunctuation =
                    escaped < 0x80 && escaped > 0x20 && escaped != 0x7F
                    && !(escaped | 0x20 >= UInt8(ascii: "a") && escaped | 0x20 <= UInt8(ascii: "z"))
                    && !(escaped >= UInt8(ascii: "0") && escaped <= UInt8(ascii: "9"))
                guard isPunctuation else { break scan }
                lastCharacterStart = literal.count
                literal.append(escaped)
                index += 2
            default:
                // A UTF-8 lead byte starts a character; continuation bytes (10xxxxxx) extend it.
                if byte & 0xC0 != 0x80 { lastCharacterStart = literal.count }
                literal.append(byte)
                index += 1
            }
        }
        return literal.isEmpty ? nil : literal
    }
}
