/// Finds, from a URL's first bytes alone, the rules that can match it, when every rule's
/// regex starts with `^` and a literal (`^https://www\.shop\.com/…`, as most rewrite rules
/// do): a rule can match only a URL that begins with its literal, so neither the prefilter's
/// scan of the whole URL nor the regexes of the other rules are needed.
///
/// The first ``length`` bytes (the shortest of the literals) of each literal are hashed; the
/// rules are listed by hash, in rule order. For a URL, the rules listed under the hash of its
/// first ``length`` bytes are the candidates, and a candidate is kept when the URL starts with
/// its whole literal (which also rules out hash collisions).
struct AnchoredPrefixGate: Sendable {
    /// How many of a URL's first bytes are hashed.
    let length: Int
    /// The distinct hashes of the rules' first ``length`` literal bytes, sorted.
    private let hashes: [Int]
    /// Where the rules of `hashes[i]` end in `rules` (they start where those of `i - 1` end).
    private let ends: [UInt32]
    /// Rule indices grouped by hash, ascending within a hash.
    private let rules: [UInt32]
    /// Every rule's literal, one after another; rule `r`'s ends at `literalEnds[r]`.
    private let literals: [UInt8]
    private let literalEnds: [UInt32]

    /// The gate for rules whose patterns are `patterns`, in rule order; `nil` when a pattern
    /// does not start with `^` and a literal (or there is none), so that any URL may match.
    init?(patterns: some Collection<String>) {
        guard !patterns.isEmpty else { return nil }
        var literals: [UInt8] = []
        var literalEnds: [UInt32] = []
        literalEnds.reserveCapacity(patterns.count)
        var shortest = Int.max
        for pattern in patterns {
            guard let literal = Self.anchoredLiteral(of: pattern) else { return nil }
            literals += literal
            literalEnds.append(UInt32(literals.count))
            shortest = min(shortest, literal.count)
        }
        // Longer keys tell more URLs apart; 32 bytes are plenty and keep the hash short.
        let length = min(32, shortest)
        var keyed: [(hash: Int, rule: UInt32)] = []
        keyed.reserveCapacity(literalEnds.count)
        literals.withUnsafeBufferPointer { literals in
            var start = 0
            for (rule, end) in literalEnds.enumerated() {
                keyed.append((ByteHash.hash(UnsafeBufferPointer(rebasing: literals[start..<start + length])), UInt32(rule)))
                start = Int(end)
            }
        }
        keyed.sort { ($0.hash, $0.rule) < ($1.hash, $1.rule) }
        var hashes: [Int] = []
        var ends: [UInt32] = []
        for (position, key) in keyed.enumerated() {
            if hashes.last != key.hash {
                hashes.append(key.hash)
                ends.append(UInt32(position))
            }
            ends[ends.count - 1] = UInt32(position + 1)
        }
        self.length = length
        self.hashes = hashes
        self.ends = ends
        self.rules = keyed.map(\.rule)
        self.literals = literals
        self.literalEnds = literalEnds
    }

    /// Where the candidates of `subject` are among the listed rules: the positions to pass to
    /// ``candidate(at:for:)``, empty when no rule can match.
    func candidates(for subject: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        guard subject.count >= length else { return 0..<0 }
        let hash = ByteHash.hash(UnsafeBufferPointer(rebasing: subject[..<length]))
        var low = 0
        var high = hashes.count
        while low < high {
            let middle = (low + high) / 2
            if hashes[middle] < hash { low = middle + 1 } else { high = middle }
        }
        guard low < hashes.count, hashes[low] == hash else { return 0..<0 }
        return (low == 0 ? 0 : Int(ends[low - 1]))..<Int(ends[low])
    }

    /// The rule listed at `position` (from ``candidates(for:)``, ascending positions give rules
    /// in rule order) when `subject` starts with its whole literal; `nil` otherwise.
    func candidate(at position: Int, for subject: UnsafeBufferPointer<UInt8>) -> Int? {
        let rule = Int(rules[position])
        return startsWithLiteral(of: rule, subject) ? rule : nil
    }

    /// Whether `subject` starts with the whole literal of `rule`.
    private func startsWithLiteral(of rule: Int, _ subject: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = rule == 0 ? 0 : Int(literalEnds[rule - 1])
        let count = Int(literalEnds[rule]) - start
        guard subject.count >= count else { return false }
        return literals.withUnsafeBufferPointer { literals in
            guard let literal = UnsafeRawPointer(literals.baseAddress), let bytes = UnsafeRawPointer(subject.baseAddress)
            else { return count == 0 }
            // Eight bytes at a time, then the rest one by one.
            var offset = 0
            while offset + 8 <= count {
                guard
                    literal.loadUnaligned(fromByteOffset: start + offset, as: UInt64.self)
                        == bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                else { return false }
                offset += 8
            }
            while offset < count {
                guard literal.load(fromByteOffset: start + offset, as: UInt8.self) == bytes.load(fromByteOffset: offset, as: UInt8.self)
                else { return false }
                offset += 1
            }
            return true
        }
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
