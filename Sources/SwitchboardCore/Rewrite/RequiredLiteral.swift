/// Finds, in the source of a PCRE2 regex, a literal that every match must contain.
///
/// Conservative by construction: it only reads the top level of the pattern, and gives up
/// (returns `nil`) on anything it does not fully understand. The result is the longest run of
/// consecutive mandatory literal characters at the top level, where:
/// - plain characters and escaped ASCII punctuation (`\.`, `\/`, `\?`) are literals;
/// - a character followed by `?`, `*` or a `{…}` quantifier with minimum 0 is dropped, and
///   one followed by `+` or `{n…}` (n ≥ 1) ends the run after it;
/// - groups, classes, `.`, anchors and letter escapes (`\d`, `\b`, …) break the run;
/// - top-level `|`, top-level option settings such as `(?i)` or `(?x)`, `\Q…\E`, escapes
///   with arguments (`\x41`, `\p{L}`, backreferences), backtracking verbs `(*…)` anywhere
///   (`(*ACCEPT)` ends a match early), top-level comments and extended mode inside groups
///   give `nil`.
///
/// Breaking a run early or dropping characters only ever makes the literal shorter, never
/// wrong, so a rule with a literal cannot match a URL that lacks it.
enum RequiredLiteral {
    /// The longest required literal of `pattern` as UTF-8 bytes, or `nil` when there is none or
    /// the pattern uses syntax this scanner does not model.
    static func extract(from pattern: String) -> [UInt8]? {
        var scanner = Scanner(bytes: Array(pattern.utf8))
        guard let literal = scanner.longestRun(), !literal.isEmpty else { return nil }
        return literal
    }

    private struct Scanner {
        let bytes: [UInt8]
        var best: [UInt8] = []
        var run: [UInt8] = []

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func longestRun() -> [UInt8]? {
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "|"), UInt8(ascii: ")"), UInt8(ascii: "{"),
                    UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"):
                    // Top-level alternation, an unbalanced `)`, a quantifier with nothing to
                    // repeat, or a `{` that is not a quantifier: give up.
                    return nil
                case UInt8(ascii: "("):
                    guard let end = groupEnd(from: index) else { return nil }
                    endRun()
                    index = skipQuantifier(at: end).next
                case UInt8(ascii: "["):
                    guard let end = classEnd(from: index) else { return nil }
                    endRun()
                    index = skipQuantifier(at: end).next
                case UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "$"):
                    endRun()
                    index = skipQuantifier(at: index + 1).next
                case UInt8(ascii: "\\"):
                    guard index + 1 < bytes.count else { return nil }
                    let escaped = bytes[index + 1]
                    if isASCIIAlphanumeric(escaped) || escaped >= 0x80 {
                        guard isSimpleEscape(at: index + 1) else { return nil }
                        endRun()
                        index = skipQuantifier(at: index + 2).next
                    } else {
                        guard let next = literalAtom(index + 1..<index + 2) else { return nil }
                        index = next
                    }
                default:
                    let length = scalarLength(lead: byte)
                    guard index + length <= bytes.count,
                        let next = literalAtom(index..<index + length)
                    else { return nil }
                    index = next
                }
            }
            endRun()
            return best
        }

        /// Adds the literal character at `atom` to the run, honouring a quantifier after it.
        /// Returns the index after the atom and its quantifier, or `nil` to give up.
        private mutating func literalAtom(_ atom: Range<Int>) -> Int? {
            let quantifier = skipQuantifier(at: atom.upperBound)
            guard quantifier.understood else { return nil }
            switch quantifier.minimum {
            case nil:
                run.append(contentsOf: bytes[atom])
            case 0:
                endRun()
            default:
                run.append(contentsOf: bytes[atom])
                endRun()
            }
            return quantifier.next
        }

        private mutating func endRun() {
            if run.count > best.count {
                best = run
            }
            run.removeAll(keepingCapacity: true)
        }

        /// Reads a quantifier at `index`, if any, with its lazy/possessive suffix.
        /// `minimum` is `nil` when there is no quantifier; `understood` is false for a `{`
        /// that is neither a clear quantifier nor clearly literal.
        private func skipQuantifier(at index: Int) -> (next: Int, minimum: Int?, understood: Bool) {
            guard index < bytes.count else { return (index, nil, true) }
            var next = index + 1
            let minimum: Int
            switch bytes[index] {
            case UInt8(ascii: "?"), UInt8(ascii: "*"):
                minimum = 0
            case UInt8(ascii: "+"):
                minimum = 1
            case UInt8(ascii: "{"):
                // Accept a superset of PCRE2's quantifier syntax (`{n}`, `{n,}`, `{n,m}`, and
                // newer forms `{,m}` and spaces): treating a literal `{…}` as a quantifier
                // only drops characters, which is safe.
                var digits = 0
                var leading: Int? = nil
                var sawComma = false
                while next < bytes.count, bytes[next] != UInt8(ascii: "}") {
                    let byte = bytes[next]
                    if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                        digits += 1
                        if !sawComma { leading = (leading ?? 0) &* 10 &+ Int(byte - UInt8(ascii: "0")) }
                    } else if byte == UInt8(ascii: ",") {
                        sawComma = true
                    } else if byte != UInt8(ascii: " ") {
                        return (index, nil, false)
                    }
                    next += 1
                }
                guard next < bytes.count, digits > 0 else { return (index, nil, false) }
                next += 1
                minimum = min(leading ?? 0, 1)
            default:
                return (index, nil, true)
            }
            if next < bytes.count, bytes[next] == UInt8(ascii: "?") || bytes[next] == UInt8(ascii: "+") {
                next += 1
            }
            return (next, minimum, true)
        }

        /// The index after the `)` closing the group opened at `start`, or `nil` to give up.
        private func groupEnd(from start: Int) -> Int? {
            if start + 1 < bytes.count, bytes[start + 1] == UInt8(ascii: "*") { return nil }
            if let options = optionSetting(at: start), options.terminator == UInt8(ascii: ")") {
                // `(?i)` and friends at the top level change what follows.
                return nil
            }
            if start + 2 < bytes.count, bytes[start + 1] == UInt8(ascii: "?"), bytes[start + 2] == UInt8(ascii: "#") {
                // A top-level comment: a quantifier after it may apply to the character before.
                return nil
            }
            var depth = 0
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\\"):
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "Q") || bytes[index + 1] == UInt8(ascii: "E") {
                        return nil
                    }
                    index += 2
                case UInt8(ascii: "["):
                    guard let end = classEnd(from: index) else { return nil }
                    index = end
                case UInt8(ascii: "("):
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") { return nil }
                    if let options = optionSetting(at: index), options.letters.contains(UInt8(ascii: "x")) {
                        return nil
                    }
                    if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "?"), bytes[index + 2] == UInt8(ascii: "#") {
                        // A comment runs to the next `)`, whatever it contains.
                        guard let close = bytes[index...].firstIndex(of: UInt8(ascii: ")")) else { return nil }
                        index = close + 1
                        continue
                    }
                    depth += 1
                    index += 1
                case UInt8(ascii: ")"):
                    depth -= 1
                    index += 1
                    if depth == 0 { return index }
                default:
                    index += 1
                }
            }
            return nil
        }

        /// Reads `(?letters)` or `(?letters:` at `start`: an inline option setting.
        private func optionSetting(at start: Int) -> (letters: ArraySlice<UInt8>, terminator: UInt8)? {
            guard start + 1 < bytes.count, bytes[start + 1] == UInt8(ascii: "?") else { return nil }
            var index = start + 2
            while index < bytes.count,
                isASCIILetter(bytes[index]) || bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "^")
            {
                index += 1
            }
            guard index < bytes.count, bytes[index] == UInt8(ascii: ")") || bytes[index] == UInt8(ascii: ":") else {
                return nil
            }
            return (bytes[(start + 2)..<index], bytes[index])
        }

        /// The index after the `]` closing the class opened at `start`, or `nil` to give up.
        private func classEnd(from start: Int) -> Int? {
            var index = start + 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "^") { index += 1 }
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1 }
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\\"):
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "Q") || bytes[index + 1] == UInt8(ascii: "E") {
                        return nil
                    }
                    index += 2
                case UInt8(ascii: "["):
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ":") {
                        // A POSIX class `[:alpha:]`; without its `:]` the `[` is literal.
                        var close = index + 2
                        while close + 1 < bytes.count,
                            !(bytes[close] == UInt8(ascii: ":") && bytes[close + 1] == UInt8(ascii: "]"))
                        {
                            close += 1
                        }
                        index = close + 1 < bytes.count ? close + 2 : index + 1
                    } else {
                        index += 1
                    }
                case UInt8(ascii: "]"):
                    return index + 1
                default:
                    index += 1
                }
            }
            return nil
        }

        /// Whether the letter escape at `index` (after the `\`) takes no argument and so is
        /// exactly two characters long: `\d \D \w \W \s \S \h \H \v \V \R \N \X \b \B \A \z
        /// \Z \G \K` and the control escapes `\n \r \t \f \e \a`.
        private func isSimpleEscape(at index: Int) -> Bool {
            let simple = "dDwWsShHvVRNXbBAzZGKnrtfea".utf8
            let letter = bytes[index]
            guard simple.contains(letter) else { return false }
            // `\N{U+…}` names a character.
            if letter == UInt8(ascii: "N"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "{") {
                return false
            }
            return true
        }

        private func isASCIILetter(_ byte: UInt8) -> Bool {
            (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
        }

        private func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
            isASCIILetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        }

        /// Length of the UTF-8 sequence starting with `lead` (1 for ASCII and stray bytes).
        private func scalarLength(lead: UInt8) -> Int {
            switch lead {
            case 0xF0...: 4
            case 0xE0...: 3
            case 0xC0...: 2
            default: 1
            }
        }
    }
}
