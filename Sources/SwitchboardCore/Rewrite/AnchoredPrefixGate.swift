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
    /// The distinct keys (``key(_:)``) of the rules' first ``length`` literal bytes, sorted.
    private let hashes: [UInt64]
    /// Where the rules of `hashes[i]` end in `rules` (they start where those of `i - 1` end).
    private let ends: [UInt32]
    /// Rule indices grouped by hash, ascending within a hash.
    private let rules: [UInt32]
    /// Every rule's literal, one after another; rule `r`'s ends at `literalEnds[r]`.
    private let literals: [UInt8]
    private let literalEnds: [UInt32]

    /// The gate for rules whose patterns are `patterns`, in rule order; `nil` when a pattern
    /// does not start with `^` and a literal (or there is none), so that any URL may match.
    /// - Parameters:
    ///   - previous: a gate whose literals are taken for the rules it has, not extracted again.
    ///   - previousIndex: per rule, its index in `previous` when `previous` has it (with the
    ///     same pattern), else `nil`; empty without `previous`.
    /// A rule index takes the low bits of a sorted entry, its key the high ones.
    private static let ruleBits = 24

    init?(patterns: some Collection<String>, previous: AnchoredPrefixGate? = nil, previousIndex: [Int?] = []) {
        guard !patterns.isEmpty, patterns.count < 1 << Self.ruleBits else { return nil }
        var literals: [UInt8] = []
        literals.reserveCapacity(patterns.count * 32)
        var literalEnds: [UInt32] = []
        literalEnds.reserveCapacity(patterns.count)
        var shortest = Int.max
        // Taken out of `previous` once: binding it inside the loop would copy it per rule.
        let previousLiterals = previous?.literals ?? []
        let previousEnds = previous?.literalEnds ?? []
        for (rule, pattern) in patterns.enumerated() {
            let count: Int
            if rule < previousIndex.count, let old = previousIndex[rule], old < previousEnds.count {
                let start = old == 0 ? 0 : Int(previousEnds[old - 1])
                count = Int(previousEnds[old]) - start
                previousLiterals.withUnsafeBufferPointer {
                    literals.append(contentsOf: UnsafeBufferPointer(rebasing: $0[start..<start + count]))
                }
            } else {
                guard let extracted = Self.appendAnchoredLiteral(of: pattern, to: &literals) else { return nil }
                count = extracted
            }
            literalEnds.append(UInt32(literals.count))
            shortest = min(shortest, count)
        }
        // Longer keys tell more URLs apart; 32 bytes are plenty and keep the hash short.
        let length = min(32, shortest)
        // Key and rule packed in one integer, so that a plain sort orders by key, then rule.
        var entries: [UInt64] = []
        entries.reserveCapacity(literalEnds.count)
        literals.withUnsafeBufferPointer { literals in
            var start = 0
            for (rule, end) in literalEnds.enumerated() {
                let key = Self.key(ByteHash.hash(UnsafeBufferPointer(rebasing: literals[start..<start + length])))
                entries.append(key << UInt64(Self.ruleBits) | UInt64(rule))
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
        var literal: [UInt8] = []
        return appendAnchoredLiteral(of: pattern, to: &literal) == nil ? nil : literal
    }

    /// Appends ``anchoredLiteral(of:)`` to `output` and returns its length; `nil` (with
    /// `output` as it was) when there is none.
    static func appendAnchoredLiteral(of pattern: String, to output: inout [UInt8]) -> Int? {
        let before = output.count
        var pattern = pattern
        let count = pattern.withUTF8 { appendAnchoredLiteral(of: $0, to: &output) }
        if count == nil { output.removeLast(output.count - before) }
        return count
    }

    private static func appendAnchoredLiteral(of bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) -> Int? {
        guard bytes.first == UInt8(ascii: "^") else { return nil }
        for byte in bytes where byte == UInt8(ascii: "|") { return nil }
        // Built in a scratch buffer (a literal is never longer than its pattern), appended once.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { literal -> Int? in
            var count = 0
            // Where the last character of the literal starts, to drop it whole before a quantifier.
            var lastCharacterStart = 0
            var index = 1
            scan: while index < bytes.count {
                let byte = bytes[index]
                switch byte {
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
            guard count > 0 else { return nil }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: literal[..<count]))
            return count
        }
    }
}
