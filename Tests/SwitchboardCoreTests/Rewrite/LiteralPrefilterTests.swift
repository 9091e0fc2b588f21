import PropertyBased
import SwitchboardTestSupport
import Testing

@testable import SwitchboardCore

/// Generators shared by the prefilter properties: small alphabets so that random regexes
/// and random URLs overlap often.
enum PrefilterGen {
    static let regexFragments = [
        "shop", "/p/", "ab", "a", "b", ".", "\\.", "a?", "b*", "(ab)", "(a|b)", "[ab]", "[^a]", "\\d", "x+",
        "c{0,2}", "c{2}", "c{1,}", "(?i)", "|", "^", "$", "(?:shop)?", "(?i:AB)", "\\/", "ä", "ü?", "1", "\\b",
        "(?=a)", "(?<!b)", "(?#c)", "\\x61", "\\Qa.\\E", "(*ACCEPT)", "(?x) a", "{", "}", "]", "ab{0}", "p+?",
        "(a)(b)?", "\\1", "//", ":", "myapp", "[[:alpha:]]", "\\w+", "(?|(a)|(b))",
    ]
    static let urlFragments = ["shop", "ab", "a", "b", ".", "/", "p", "x", "cc", "AB", "ä", "ü", "1", ":", "myapp", "//"]
    static let targets = [
        "app://t/$0", "myapp://$0ab", "myapp://x$$0", "$path", "myapp://$#0/b", "myapp://AB.shop/$0", "myapp://$host$path/ab",
    ]

    static let regex = Gen<String?>.element(of: regexFragments).map { $0 ?? "" }.array(of: 1...5).map { $0.joined() }
    static let url = Gen<String?>.element(of: urlFragments).map { $0 ?? "" }.array(of: 0...10)
        .map { "myapp://" + $0.joined() }
    static let garbage = Gen.ascii.string(of: 0...16)

    /// Builds valid rules from random regexes (those that do not compile are dropped).
    static func rules(_ regexes: [String], seeds: [Int]) -> [RewriteRule] {
        regexes.enumerated().compactMap { index, regex in
            guard (try? CompiledRegex(regex)) != nil else { return nil }
            let seed = seeds[index % seeds.count]
            return RewriteRule(id: "r\(index)", match: regex, target: targets[seed % targets.count], last: seed % 3 == 0)
        }
    }

    /// The components of a generated `myapp://` URL (authority up to the first `/`).
    static func parsed(_ text: String) -> ParsedURL {
        let rest = text.dropFirst("myapp://".count)
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        return ParsedURL(uncheckedString: text, scheme: "myapp", host: String(rest[..<slash]), path: String(rest[slash...]))
    }
}

@Suite struct LiteralPrefilterTests {
    @Test(
        arguments: [
            ("(?:https://)?www.shop.com/search/(.*)", "com/search/"),
            ("^https://m\\.shop\\.com/item/(\\d+)", "https://m.shop.com/item/"),
            ("shop\\.com/p/(\\d+)", "shop.com/p/"),
            ("colou?r", "colo"),
            ("abc*de", "ab"),
            ("abc+de", "abc"),
            ("ab{0}cdef", "cdef"),
            ("ab{2}cdef", "cdef"),
            ("xy{1,3}?z", "xy"),
            ("a{,3}bcd", "bcd"),
            ("caf(é)?s", "caf"),
            ("éé?abc", "abc"),
            ("évé", "évé"),
            ("a\\d+bcdef\\w", "bcdef"),
            ("[abc]+defg[)]hi", "defg"),
            ("[]x]yzw", "yzw"),
            ("[[:alpha:]]long", "long"),
            ("(a(b)c)?longer", "longer"),
            ("ab(?i:CD)efg", "efg"),
            ("x\\/y\\?z", "x/y?z"),
            ("#not a comment", "#not a comment"),
            ("\\bword\\b", "word"),
            ("(?<=pre)post", "post"),
            ("abc$", "abc"),
            ("^", nil),
            (".*", nil),
            ("a|b", nil),
            ("abc|def", nil),
            ("(?i)abc", nil),
            ("abcd(?i)ef", nil),
            ("(?x)a b c", nil),
            ("ab(?x: c # ) \n)d", nil),
            ("\\Qa.b\\E", nil),
            ("\\x41bc", nil),
            ("\\p{L}abc", nil),
            ("(a)\\1bc", nil),
            ("abc(*ACCEPT)def", nil),
            ("(?:x(*ACCEPT))abc", nil),
            ("abc(?#c)*", nil),
            ("a{b", nil),
            ("*abc", nil),
            ("abc)", nil),
            ("(abc", nil),
            ("[abc", nil),
        ] as [(String, String?)])
    func extraction(pattern: String, expected: String?) {
        #expect(RequiredLiteral.extract(from: pattern).map { String(decoding: $0, as: UTF8.self) } == expected)
    }

    /// Soundness: whenever a regex matches a subject, the subject contains its literal.
    @Test func everyMatchContainsTheLiteral() async {
        await propertyCheck(count: 1_000, input: PrefilterGen.regex, PrefilterGen.url) { regex, url in
            checkSound(regex, url)
        }
        await propertyCheck(count: 1_000, input: PrefilterGen.garbage, PrefilterGen.garbage) { regex, subject in
            checkSound(regex, subject)
        }
    }

    private func checkSound(_ regex: String, _ subject: String) {
        let literal = RequiredLiteral.extract(from: regex)
        guard let compiled = try? CompiledRegex(regex), let literal else { return }
        var subject = subject
        subject.withUTF8 { bytes in
            if case .match = compiled.search(bytes) {
                let prefilter = LiteralPrefilter(literals: [literal])
                #expect(prefilter.confirms(rule: 0, in: bytes), "\(regex) matched \(Array(bytes)) without its literal")
            }
        }
    }

    /// The prefilter never changes an outcome: random rule sets × random URLs give identical
    /// outcomes with and without it.
    @Test func prefilterNeverChangesOutcomes() async {
        let seeds = Gen.int(in: 0...1_000).array(of: 1...8)
        await propertyCheck(count: 500, input: PrefilterGen.regex.array(of: 1...24), seeds, PrefilterGen.url) {
            regexes, seeds, url in
            let rules = PrefilterGen.rules(regexes, seeds: seeds)
            do {
                let fast = try RewriteEngine(rules: rules, options: .default, usesPrefilter: true)
                let reference = try RewriteEngine(rules: rules, options: .default, usesPrefilter: false)
                let input = PrefilterGen.parsed(url)
                #expect(fast.rewrite(input) == reference.rewrite(input), "rules: \(rules.map(\.match)) url: \(url)")
            } catch {
                Issue.record("generated rules must be valid: \(error)")
            }
        }
    }

    /// The same with many rules sharing grams, so that buckets hold several rules and the
    /// bitset spans several words.
    @Test func prefilterNeverChangesOutcomesWithManyRules() throws {
        var rules: [RewriteRule] = []
        for index in 0..<300 {
            let word = ["shop", "ab.p", "myapp", "xab/", "AB.s"][index % 5]
            rules.append(
                RewriteRule(
                    id: "r\(index)", match: "\(word)\(index % 7 == 0 ? "" : "/")\(index % 11 == 0 ? "(a)?" : "p")",
                    target: PrefilterGen.targets[index % PrefilterGen.targets.count], last: index % 4 == 0))
        }
        let fast = try RewriteEngine(rules: rules, options: .default, usesPrefilter: true)
        let reference = try RewriteEngine(rules: rules, options: .default, usesPrefilter: false)
        var generator = SplitMix(seed: 42)
        for _ in 0..<500 {
            let parts = (0..<Int(generator.next() % 10)).map { _ in
                PrefilterGen.urlFragments[Int(generator.next() % UInt64(PrefilterGen.urlFragments.count))]
            }
            let input = PrefilterGen.parsed("myapp://" + parts.joined())
            #expect(fast.rewrite(input) == reference.rewrite(input), "\(input)")
        }
    }

    /// With 1,000 rules keyed by distinct literals, a URL makes only its own rule a candidate.
    @Test func candidatesStayFewWithManyRules() {
        let literals: [[UInt8]?] = (0..<1_000).map { Array("/promo/campaign-\($0)/".utf8) } + [nil, Array("ab".utf8)]
        let prefilter = LiteralPrefilter(literals: literals)
        var url = "https://m.shop.com/promo/campaign-537/today"
        let marked: [Int] = url.withUTF8 { subject in
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: prefilter.wordCount) { words in
                prefilter.markCandidates(in: subject, into: words)
                return (0..<literals.count).filter { words[$0 >> 6] & (1 << UInt64($0 & 63)) != 0 }
            }
        }
        // The rarest gram of "/promo/campaign-537/" is one with "537"; the two literal-less
        // or short rules are always candidates.
        #expect(marked.contains(537))
        #expect(marked.contains(1_000) && marked.contains(1_001))
        #expect(marked.count <= 6, "\(marked)")
        let confirmed = url.withUTF8 { subject in marked.filter { prefilter.confirms(rule: $0, in: subject) } }
        #expect(confirmed == [537, 1_000])
    }
}
