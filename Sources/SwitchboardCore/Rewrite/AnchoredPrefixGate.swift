/// Finds, from a URL's first bytes alone, the rules that can match it, when every rule's
/// regex starts with `^` and a literal (`^https://www\.shop\.com/…`, as most rewrite rules
/// do): a rule can match only a URL that begins with its literal, so neither the prefilter's
/// scan of the whole URL nor the regexes of the other rules are needed.
///
/// The first ``length`` bytes (the shortest of the literals) of each literal are hashed; the
/// rules are listed by hash, in rule order. For a URL, the rules listed under the hash of its
/// first ``length`` bytes are the candidates, and a candidate is kept when the URL starts with
/// its whole literal (which also rules out hash collisions).
///
/// A rule whose literal holds one optional character (`^https?://old\.example/`, the usual
/// way to take both schemes) is listed under both spellings (`https://old.example/` and
/// `http://old.example/`): cut at the `?`, every such literal would be `http`, and one key
/// would list them all.
struct AnchoredPrefixGate: Sendable {
    /// How many of a URL's first bytes are hashed.
    let length: Int
    /// The distinct keys (``key(_:)``) of the rules' first ``length`` literal bytes, sorted.
    private let hashes: [UInt64]
    /// Where the rules of `hashes[i]` end in `rules` (they start where those of `i - 1` end).
    private let ends: [UInt32]
    /// Spelling indices grouped by hash, ascending within a hash (spellings are numbered in
    /// rule order, so this is rule order too).
    private let rules: [UInt32]
    /// Every spelling of every rule, one after another; spelling `s` ends at `literalEnds[s]`
    /// and belongs to rule `spellingRules[s]`.
    private let literals: [UInt8]
    private let literalEnds: [UInt32]
    private let spellingRules: [UInt32]
    /// Where each rule's spellings end among the spellings (they start where rule `r - 1`'s end).
    private let ruleSpellingEnds: [UInt32]

    /// A rule index takes the low bits of a sorted entry, its key the high ones.
    private static let ruleBits = 24

    /// The gate for rules whose patterns are `patterns`, in rule order; `nil` when a pattern
    /// does not start with `^` and a literal (or there is none), so that any URL may match.
    /// - Parameters:
    ///   - previous: a gate whose literals are taken for the rules it has, not extracted again.
    ///   - previousIndex: per rule, its index in `previous` when `previous` has it (with the
    ///     same pattern), else `nil`; empty without `previous`.
    init?(patterns: some Collection<String>, previous: AnchoredPrefixGate? = nil, previousIndex: [Int?] = []) {
        guard !patterns.isEmpty, patterns.count < 1 << Self.ruleBits else { return nil }
        var literals: [UInt8] = []
        literals.reserveCapacity(patterns.count * 32)
        var literalEnds: [UInt32] = []
        literalEnds.reserveCapacity(patterns.count)
        var spellingRules: [UInt32] = []
        spellingRules.reserveCapacity(patterns.count)
        var ruleSpellingEnds: [UInt32] = []
        ruleSpellingEnds.reserveCapacity(patterns.count)
        // Taken out of `previous` once: binding it inside the loop would copy it per rule.
        let previousLiterals = previous?.literals ?? []
        let previousEnds = previous?.literalEnds ?? []
        let previousRuleEnds = previous?.ruleSpellingEnds ?? []
        for (rule, pattern) in patterns.enumerated() {
            if rule < previousIndex.count, let old = previousIndex[rule], old < previousRuleEnds.count {
                let firstSpelling = old == 0 ? 0 : Int(previousRuleEnds[old - 1])
                for spelling in firstSpelling..<Int(previousRuleEnds[old]) {
                    let start = spelling == 0 ? 0 : Int(previousEnds[spelling - 1])
                    previousLiterals.withUnsafeBufferPointer {
                        literals.append(contentsOf: UnsafeBufferPointer(rebasing: $0[start..<Int(previousEnds[spelling])]))
                    }
                    literalEnds.append(UInt32(literals.count))
                    spellingRules.append(UInt32(rule))
                }
            } else {
                guard Self.appendAnchoredSpellings(of: pattern, to: &literals, ends: &literalEnds) else { return nil }
                while spellingRules.count < literalEnds.count { spellingRules.append(UInt32(rule)) }
            }
            ruleSpellingEnds.append(UInt32(literalEnds.count))
        }
        guard literalEnds.count < 1 << Self.ruleBits else { return nil }
        var shortest = Int.max
        var previousEnd: UInt32 = 0
        for end in literalEnds {
            shortest = min(shortest, Int(end - previousEnd))
            previousEnd = end
        }
        // Longer keys tell more URLs apart; 32 bytes are plenty and keep the hash short.
        let length = min(32, shortest)
        // Key and rule packed in one integer, so that a plain sort orders by key, then rule.
        var entries: [UInt64] = []
        entries.reserveCapacity(literalEnds.count)
        literals.withUnsafeBufferPointer { literals in
            var start = 0
            for (spelling, end) in literalEnds.enumerated() {
                let key = Self.key(ByteHash.hash(UnsafeBufferPointer(rebasing: literals[start..<start + length])))
                entries.append(key << UInt64(Self.ruleBits) | UInt64(spelling))
                start = Int(end)
            }
        }
        entries.sort()
        var hashes: [UInt64] = []
        var ends: [UInt32] = []
        var rules: [UInt32] = []
        rules.reserveCapacity(entries.count)
        for entry in entries {
            let key = entry >> UInt64(Self.ruleBits)
            if hashes.last != key {
                hashes.append(key)
                ends.append(0)
            }
            rules.append(UInt32(truncatingIfNeeded: entry & (1 << UInt64(Self.ruleBits) - 1)))
            ends[ends.count - 1] = UInt32(rules.count)
        }
        self.length = length
        self.hashes = hashes
        self.ends = ends
        self.rules = rules
        self.literals = literals
        self.literalEnds = literalEnds
        self.spellingRules = spellingRules
        self.ruleSpellingEnds = ruleSpellingEnds
    }

    /// The key of a hash: its high bits, which leave room for a rule index beside them.
    private static func key(_ hash: Int) -> UInt64 {
        UInt64(bitPattern: Int64(hash)) >> UInt64(ruleBits)
    }

    /// Where the candidates of `subject` are among the listed rules: the positions to pass to
    /// ``candidate(at:for:)``, empty when no rule can match.
    func candidates(for subject: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        guard subject.count >= length else { return 0..<0 }
        let hash = Self.key(ByteHash.hash(UnsafeBufferPointer(rebasing: subject[..<length])))
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
    ///
    /// A rule listed under both its spellings with the same key comes twice in a row; trying
    /// it again gives the same answer.
    func candidate(at position: Int, for subject: UnsafeBufferPointer<UInt8>) -> Int? {
        let spelling = Int(rules[position])
        return startsWithLiteral(spelling, subject) ? Int(spellingRules[spelling]) : nil
    }

    /// Whether `subject` starts with the whole of spelling `spelling`.
    private func startsWithLiteral(_ spelling: Int, _ subject: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = spelling == 0 ? 0 : Int(literalEnds[spelling - 1])
        let count = Int(literalEnds[spelling]) - start
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

    /// The literals every match of `pattern` starts the subject with: the characters after a
    /// leading `^` up to the first one that is not plainly itself; `nil` when there is none.
    /// One character made optional by a plain `?` gives two spellings, with and without it,
    /// both going on to the end of the literal (`^https?://a\.b/` gives `https://a.b/` and
    /// `http://a.b/`); `nil` as well when a spelling would be empty.
    ///
    /// Conservative: a pattern with a `|` anywhere is refused (a top-level alternative would
    /// not be anchored), a character followed by any other quantifier (`*`, `+`, `{`, a second
    /// `?`, the lazy `??` or the possessive `?+`) is left out, and the literal stops at any
    /// other metacharacter or at an escape of a letter or digit (`\d`, `\x41`, `\Q`). An escaped
    /// punctuation character (`\.`, `\/`) is literal. The rules are compiled without multiline
    /// or extended mode, and a `(?…)` ends the literal, so `^` is the start of the subject and
    /// every other byte stands for itself.
    static func anchoredSpellings(of pattern: String) -> [[UInt8]]? {
        var literals: [UInt8] = []
        var ends: [UInt32] = []
        guard appendAnchoredSpellings(of: pattern, to: &literals, ends: &ends) else { return nil }
        var start = 0
        return ends.map { end in
            defer { start = Int(end) }
            return Array(literals[start..<Int(end)])
        }
    }

    /// Appends the spellings of ``anchoredSpellings(of:)`` to `output` and each one's end to
    /// `ends`; `false` (with both as they were) when there is none.
    static func appendAnchoredSpellings(of pattern: String, to output: inout [UInt8], ends: inout [UInt32]) -> Bool {
        var pattern = pattern
        return pattern.withUTF8 { appendAnchoredSpellings(of: $0, to: &output, ends: &ends) }
    }

    private static func appendAnchoredSpellings(
        of bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8], ends: inout [UInt32]
    ) -> Bool {
        guard bytes.first == UInt8(ascii: "^") else { return false }
        for byte in bytes where byte == UInt8(ascii: "|") { return false }
        // Built in a scratch buffer (a literal is never longer than its pattern), appended once.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { literal -> Bool in
            var count = 0
            // Where the last character of the literal starts, to drop it whole before a quantifier.
            var lastCharacterStart = 0
            // The optional character's bytes in `literal`, once one is found.
            var optional: Range<Int>?
            var index = 1
            scan: while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "?")
                where optional == nil && count > lastCharacterStart
                    && !(index + 1 < bytes.count && (bytes[index + 1] == UInt8(ascii: "?") || bytes[index + 1] == UInt8(ascii: "+"))):
                    // `x?` (not the lazy `x??` nor the possessive `x?+`): both spellings go on.
                    optional = lastCharacterStart..<count
                    lastCharacterStart = count
                    index += 1
                case UInt8(ascii: "?"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "{"):
                    count = lastCharacterStart
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
                    lastCharacterStart = count
                    literal[count] = escaped
                    count += 1
                    index += 2
                default:
                    // A UTF-8 lead byte starts a character; continuation bytes (10xxxxxx) extend it.
                    if byte & 0xC0 != 0x80 { lastCharacterStart = count }
                    literal[count] = byte
                    count += 1
                    index += 1
                }
            }
            guard let range = optional, count > range.lowerBound else {
                guard count > 0 else { return false }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: literal[..<count]))
                ends.append(UInt32(output.count))
                return true
            }
            // With the character, then without it; neither may be empty.
            guard count - range.count > 0 else { return false }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: literal[..<count]))
            ends.append(UInt32(output.count))
            output.append(contentsOf: UnsafeBufferPointer(rebasing: literal[..<range.lowerBound]))
            output.append(contentsOf: UnsafeBufferPointer(rebasing: literal[range.upperBound..<count]))
            ends.append(UInt32(output.count))
            return true
        }
    }
}
