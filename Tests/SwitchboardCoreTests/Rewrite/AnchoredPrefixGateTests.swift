import SwitchboardTestSupport
import Testing

@testable import SwitchboardCore

/// ``AnchoredPrefixGate``: the literal each pattern starts with, and no URL that some rule's
/// regex matches is ever turned away.
struct AnchoredPrefixGateTests {
    @Test(
        arguments: [
            (#"^https://www\.shop\.com/(.*)$"#, "https://www.shop.com/"),
            (#"^shop://campaign/(\w+)"#, "shop://campaign/"),
            (#"^ab*c"#, "a"),
            (#"^abc{2}"#, "ab"),
            (#"^a\d"#, "a"),
            (#"^a\x41"#, "a"),
            (#"^a\Qb.\E"#, "a"),
            (#"^a\.b\/c\-"#, "a.b/c-"),
            (#"^a(?i)b"#, "a"),
            (#"^a[bc]"#, "a"),
            (#"^ab$"#, "ab"),
            (#"^a.b"#, "a"),
        ] as [(String, String)])
    func literalAfterTheAnchor(pattern: String, literal: String) {
        #expect(AnchoredPrefixGate.anchoredSpellings(of: pattern) == [Array(literal.utf8)], "\(pattern)")
    }

    @Test(arguments: [#"https://a"#, #"^a|b"#, #"^(a)"#, #"^\d"#, #"^a?"#, #"(?m)^a"#, #"^[a]"#, #"^.a"#, #"^"#, #"^*a"#])
    func noLiteral(pattern: String) {
        #expect(AnchoredPrefixGate.anchoredSpellings(of: pattern) == nil, "\(pattern)")
    }

    /// A gate exists only when every rule starts with a literal.
    @Test func oneUnanchoredRuleOpensTheGate() {
        #expect(AnchoredPrefixGate(patterns: [#"^a/b"#, #"^c"#]) != nil)
        #expect(AnchoredPrefixGate(patterns: [#"^a/b"#, #"c"#]) == nil)
        #expect(AnchoredPrefixGate(patterns: [String]()) == nil)
    }

    /// Random anchored patterns over a small alphabet and random subjects: whenever one of the
    /// regexes matches a subject, that rule is among the gate's candidates.
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func neverTurnsAwayAMatch(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let pieces = ["a", "b", "ab", "é", "/", "\\.", ".", "a?", "b*", "c{2}", "[ab]", "\\d", "(a)", "x+", "1", "$", "(?i)A"]
        func pick(_ count: Int) -> String {
            (0..<count).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
        }
        var checked = 0
        for _ in 0..<200 {
            let patterns = (0..<(1 + Int(random.next() % 3))).map { _ in "^" + pick(1 + Int(random.next() % 4)) }
            let regexes = patterns.compactMap { try? CompiledRegex($0) }
            guard regexes.count == patterns.count else { continue }
            let gate = AnchoredPrefixGate(patterns: patterns)
            for _ in 0..<50 {
                let subjectPieces = ["a", "b", "é", "/", ".", "c", "cc", "1", "x", "A"]
                var subject = (0..<Int(random.next() % 6)).map { _ in subjectPieces[Int(random.next() % 10)] }.joined()
                let matched = subject.withUTF8 { bytes in
                    regexes.contains { if case .match = $0.search(bytes) { true } else { false } }
                }
                guard matched else { continue }
                checked += 1
                let through = subject.withUTF8 { bytes in
                    gate.map { gate in
                        regexes.indices.allSatisfy { rule in
                            guard case .match = regexes[rule].search(bytes) else { return true }
                            return gate.candidates(for: bytes).contains { gate.candidate(at: $0, for: bytes) == rule }
                        }
                    } ?? true
                }
                #expect(through, "\(patterns) on \(subject)")
            }
        }
        #expect(checked > 100)
    }

    /// The engine's first match with the gate and prefilter is the one found by running every
    /// regex, on URLs that begin with the rules' literals, with parts of them, or with neither.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func firstMatchAsEveryRegex(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let starts = ["app://a/", "app://ab", "https://www.x.com/", "https://www.x.co", "APP://a/", "app:/", "h"]
        let rules = (0..<12).map { index in
            let start = String(starts[Int(random.next() % 4)].flatMap { $0 == "." ? ["\\", "."] : [$0] })
            let rest = ["(.*)", "b?c", "\\d+", "[xy]", ""][Int(random.next() % 5)]
            return RewriteRule(id: "r\(index)", match: "^" + start + rest, target: "app://t/$0")
        }
        try Self.expectSameFirstMatches(rules, urlsStartingWith: starts, random: &random)
    }

    /// An engine built from a previous one takes the literals of the rules it kept from the
    /// previous gate; after edits (a literal changed, a rule added, one removed, two swapped) it
    /// finds the same first match as running every regex.
    @Test(arguments: [("app://", ["app://"]), ("https?://", ["https://", "http://"])])
    func gateBuiltFromThePreviousOne(scheme: String, urlSchemes: [String]) throws {
        let rules = (0..<40).map { RewriteRule(id: "r\($0)", match: "^\(scheme)r\($0 % 7)/x\($0)", target: "app://t/$0") }
        var edited = rules
        edited[3] = RewriteRule(id: "r3", match: "^\(scheme)changed/x3", target: "app://t/$0")
        edited.insert(RewriteRule(id: "new", match: "^\(scheme)r1/x", target: "app://t/$0"), at: 10)
        edited.remove(at: 20)
        edited.swapAt(30, 31)
        let previous = try RewriteEngine(rules: rules)
        let reused = try RewriteEngine(rules: edited, reusing: previous)
        let plain = try RewriteEngine(rules: edited, options: .default, usesPrefilter: false)
        #expect(reused.prefixGate != nil)
        // The fired-rule lists made once per rule follow the edits too.
        for (index, rule) in edited.enumerated() {
            #expect(reused.firedAlone[index] == [rule.id])
        }
        var matched = 0
        for index in 0..<45 {
            for urlScheme in urlSchemes {
                for path in ["r\(index % 7)/x\(index)", "changed/x\(index)", "r1/x\(index)/y", "r\(index % 7)/"] {
                    let url = urlScheme + path
                    if Self.expectSameFirstMatch(reused, plain, on: url) { matched += 1 }
                }
            }
        }
        #expect(matched > 40 * urlSchemes.count)
    }

    @Test(
        arguments: [
            (#"^https?://a\.b/(.*)$"#, ["https://a.b/", "http://a.b/"]),
            (#"^a?b"#, ["ab", "b"]),
            (#"^https?(x)"#, ["https", "http"]),
            (#"^https?://a?b"#, ["https://", "http://"]),
            (#"^https?://ab*"#, ["https://a", "http://a"]),
            (#"^caféé?x"#, ["cafééx", "caféx"]),
            (#"^a\.?b"#, ["a.b", "ab"]),
            (#"^a\.?"#, ["a.", "a"]),
            (#"^https??://a"#, ["http"]),
            (#"^https?+://a"#, ["http"]),
            (#"^shop://a"#, ["shop://a"]),
        ] as [(String, [String])])
    func spellingsOfOneOptionalCharacter(pattern: String, spellings: [String]) {
        #expect(AnchoredPrefixGate.anchoredSpellings(of: pattern) == spellings.map { Array($0.utf8) }, "\(pattern)")
    }

    @Test(arguments: [#"^a?"#, #"^a?(b)"#, #"^a|b?"#, #"^(a)?b"#])
    func noSpellingWhenOneWouldBeEmpty(pattern: String) {
        #expect(AnchoredPrefixGate.anchoredSpellings(of: pattern) == nil, "\(pattern)")
    }

    /// Rules with one optional character, random URLs near their literals: the gate's first
    /// match is the one of running every regex.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func optionalCharactersAsEveryRegex(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let starts = [#"https?://a\.x/"#, #"https?://b\.x/"#, #"https://a\.x/"#, #"app:/?/a"#, #"ht?tp://a"#, #"https?://"#]
        let rules = (0..<14).map { index in
            let start = starts[Int(random.next() % UInt64(starts.count))]
            let rest = ["(.*)", "b?c", "\\d+", "[xy]", ""][Int(random.next() % 5)]
            return RewriteRule(id: "r\(index)", match: "^" + start + rest, target: "app://t/$0")
        }
        let urls = ["https://a.x/", "http://a.x/", "https://b.x/", "http://b.x/", "htp://a", "http://a", "app://a", "app:/a", "https://"]
        try Self.expectSameFirstMatches(rules, urlsStartingWith: urls, random: &random)
    }

    /// `^https{0,1}://` cuts every rule's literal to `http` (only a plain `?` gives two
    /// spellings), so the gate files them all under one key, more than
    /// ``RewriteEngine/gateCandidateLimit``: the prefilter decides instead, with the same first
    /// match as running every regex.
    @Test func manyRulesUnderOneShortLiteral() throws {
        var rules = (0..<10).map {
            RewriteRule(id: "legacy\($0)", match: #"^https{0,1}://legacy\#($0)\.old/(.*)$"#, target: "app://$1")
        }
        rules.append(RewriteRule(id: "web", match: #"^https://www\.x\.com/(m\d+/.*)$"#, target: "app://$1"))
        let gated = try RewriteEngine(rules: rules, options: .default, usesPrefilter: true)
        let plain = try RewriteEngine(rules: rules, options: .default, usesPrefilter: false)
        #expect(gated.prefixGate != nil && rules.count > RewriteEngine.gateCandidateLimit)
        let urls = [
            "https://www.x.com/m1/a", "http://legacy3.old/p", "https://legacy9.old/q?x=1", "https://legacy10.old/",
            "https://www.x.com/z", "app://m1/x", "http", "https://legacy0.old",
        ]
        var matched = 0
        for url in urls {
            if Self.expectSameFirstMatch(gated, plain, on: url) { matched += 1 }
        }
        #expect(matched == 3)
    }

    /// The rule a first match names; -1 for none, -2 for a failure.
    /// Expects `engine` to find the same first match on `url` as `plain`, which runs every
    /// regex; returns whether some rule matched.
    /// Builds `rules` with the gate and without it (every regex run), and compares their first
    /// match on 2,000 URLs: one of `starts` and a random tail. At least 200 must match a rule,
    /// or the URLs tested little.
    static func expectSameFirstMatches(
        _ rules: [RewriteRule], urlsStartingWith starts: [String], random: inout SplitMix,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let gated = try RewriteEngine(rules: rules, options: .default, usesPrefilter: true)
        let plain = try RewriteEngine(rules: rules, options: .default, usesPrefilter: false)
        #expect(gated.prefixGate != nil, sourceLocation: sourceLocation)
        var matched = 0
        for _ in 0..<2000 {
            let tail = ["", "b", "bc", "c", "12", "x", "/y", "b/c?d"][Int(random.next() % 8)]
            let url = starts[Int(random.next() % UInt64(starts.count))] + tail
            if expectSameFirstMatch(gated, plain, on: url, sourceLocation: sourceLocation) { matched += 1 }
        }
        #expect(matched > 200, sourceLocation: sourceLocation)
    }

    static func expectSameFirstMatch(
        _ engine: RewriteEngine, _ plain: RewriteEngine, on url: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        guard let parsed = try? ParsedURL.parse(url) else { return false }
        let expected = plain.rewrite(parsed)
        #expect(engine.rewrite(parsed) == expected, "\(url)", sourceLocation: sourceLocation)
        return expected.didRewrite
    }
}
