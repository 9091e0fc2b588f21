/// Applies rewrite rules to URLs ("a 302 for apps", design.md §4). Immutable and `Sendable`:
/// build it once per rule set (it validates and compiles every rule), then share it.
///
/// Rules run top to bottom in one pass. A rule's `match` regex is searched, not anchored, in
/// the whole current URL string (``ParsedURL/string``); when it matches, the URL becomes the
/// expanded `target`. If the rule is `last` (the default) rewriting stops; otherwise the next
/// rules see the rewritten URL. Each rule runs at most once, so no rule set can loop.
///
/// - A match that hits a PCRE2 limit counts as no match and is listed in
///   ``RewriteOutcome/limitHits``.
/// - A rewritten URL that does not parse, or that is longer than ``maximumRewrittenBytes``,
///   counts as an error (``RewriteOutcome/errors``): the URL before that rule is kept and the
///   following rules still run.
///
/// Target templates (see ``RewriteTemplate`` for the details):
/// `$scheme $host $port $path $query $fragment $url` are parts of the URL the rule matched
/// (absent parts are empty); `$0` is the whole match, `$1`…`$9` and `${N}` capture groups
/// (unmatched ones are empty); `$$x` inserts `x` percent-encoded for a query value, `$#x`
/// percent-decoded; `\$` is a literal `$`.
///
/// ```swift
/// let engine = try RewriteEngine(rules: [
///     RewriteRule(id: "search", match: #"(?:https://)?www\.shop\.com/search/(.*)"#,
///                 target: "app://search?q=$$1"),
/// ])
/// let outcome = engine.rewrite(try ParsedURL.parse("https://www.shop.com/search/red shoes"))
/// // outcome.url.string == "app://search?q=red%20shoes", outcome.firedRuleIDs == ["search"]
/// ```
public struct RewriteEngine: Sendable {
    /// The longest URL a rule may make, in bytes. Without a bound, a few chained rules such
    /// as `^(app://a/)(.*)$` → `$1$2$2` double the URL each, and one request could take
    /// gigabytes. 64 KiB is far above any link a client can send (8 KiB by default,
    /// `max_url_bytes`), so a real rule never meets it.
    public static let maximumRewrittenBytes = 64 * 1024

    /// The rules, in evaluation order.
    public let rules: [RewriteRule]
    let compiled: [CompiledRewriteRule]
    /// Per rule, `[id]`: the fired-rule list of an answer that rule alone rewrote, made once so
    /// that such an answer shares it instead of allocating one.
    private let firedAlone: [[String]]
    /// `nil` runs every regex (the reference behaviour the prefilter must reproduce).
    let prefilter: LiteralPrefilter?
    /// With the prefilter, when every rule starts `^literal`: the candidates of a URL found
    /// from its first bytes, in place of the prefilter's scan.
    let prefixGate: AnchoredPrefixGate?
    /// The PCRE2 limits the rules were compiled with (a rule compiled with others is not reused).
    let options: RegexOptions

    /// An engine without rules: every URL is returned unchanged.
    public init() {
        self.rules = []
        self.compiled = []
        self.firedAlone = []
        self.options = .default
        self.prefilter = nil
        self.prefixGate = nil
    }

    /// Validates and compiles `rules`, all or nothing.
    /// - Throws: ``RuleValidationError`` listing every problem (rule index, id, field, reason):
    ///   an empty or duplicate id, an empty `match`, a regex that does not compile (PCRE2's
    ///   message and offset) or a bad `target` template (unknown variable, group above the
    ///   regex's group count, …).
    public init(rules: [RewriteRule]) throws(RuleValidationError) {
        try self.init(rules: rules, options: .default, usesPrefilter: true)
    }

    /// Validates and compiles `rules` like ``init(rules:)``, taking each rule that `previous`
    /// has unchanged from it instead of compiling its regex again: an admin change of one rule
    /// among ten thousand compiles one regex, not ten thousand.
    public init(rules: [RewriteRule], reusing previous: RewriteEngine) throws(RuleValidationError) {
        try self.init(rules: rules, options: .default, usesPrefilter: true, reusing: previous)
    }

    /// Validates and compiles `rules` with explicit regex limits.
    /// - Parameters:
    ///   - options: the PCRE2 match/depth limits of every rule's regex.
    ///   - usesPrefilter: `false` runs every regex on every URL (for tests and comparisons).
    ///   - previous: an engine whose unchanged rules are taken as they are compiled.
    package init(
        rules: [RewriteRule], options: RegexOptions, usesPrefilter: Bool, reusing previous: RewriteEngine? = nil
    ) throws(RuleValidationError) {
        var issues: [RuleValidationError.Issue] = []
        var compiled: [CompiledRewriteRule] = []
        compiled.reserveCapacity(rules.count)
        var literals: [[UInt8]?] = []
        literals.reserveCapacity(usesPrefilter ? rules.count : 0)
        var previousIndex: [Int?] = []
        var firstIndexByID: [String: Int] = [:]
        firstIndexByID.reserveCapacity(rules.count)
        let reuse = previous.flatMap { $0.options == options ? CompiledRuleReuse(old: $0.rules, new: rules) : nil }
        // Taken out of `previous` once: binding the engine inside the loop would copy it per rule.
        let previousCompiled = previous?.compiled ?? []
        let previousFiredAlone = previous?.firedAlone ?? []
        var firedAlone: [[String]] = []
        firedAlone.reserveCapacity(rules.count)
        let previousLiterals = previous?.prefilter?.literals
        for (index, rule) in rules.enumerated() {
            func report(_ field: RuleValidationError.Field, _ code: RuleValidationError.Code, _ message: String, offset: Int? = nil) {
                issues.append(.init(ruleIndex: index, ruleID: rule.id, field: field, code: code, message: message, offset: offset))
            }
            if rule.id.isEmpty {
                report(.id, .emptyID, "id must not be empty")
            } else if let first = firstIndexByID[rule.id] {
                report(.id, .duplicateID, "id \"\(rule.id)\" is already used by rule #\(first); ids must be unique")
            } else {
                firstIndexByID[rule.id] = index
            }
            let reused = reuse?.previousIndex(ofNewRule: index, rule)
            if reuse != nil { previousIndex.append(reused) }
            if let reused {
                compiled.append(previousCompiled[reused])
                firedAlone.append(previousFiredAlone[reused])
                if usesPrefilter {
                    let literal = previousLiterals.map { $0[reused] } ?? RequiredLiteral.extract(from: rule.match)
                    literals.append(literal?.isEmpty == false ? literal : nil)
                }
                continue
            }

            var regex: CompiledRegex?
            if rule.match.isEmpty {
                report(.match, .emptyMatch, "match must not be empty (it would match every URL)")
            } else {
                do {
                    regex = try CompiledRegex(rule.match, wholeMatch: false, options: options)
                } catch {
                    report(.match, .invalidRegex, "invalid regex: \(error.message)", offset: error.offset)
                }
            }

            var template: RewriteTemplate?
            if rule.target.isEmpty {
                report(.target, .invalidTemplate, "target must not be empty")
            } else {
                do {
                    // Without a regex, group numbers cannot be checked; syntax still is.
                    template = try RewriteTemplate(rule.target, captureCount: regex?.captureCount ?? Int.max)
                } catch {
                    report(.target, .invalidTemplate, error.message, offset: error.offset)
                }
            }

            var condition: CompiledCondition?
            if let when = rule.when {
                do {
                    condition = try when.compiled()
                } catch {
                    report(.when, .invalidCondition, error.message)
                }
            }

            if let regex, let template {
                firedAlone.append([rule.id])
                compiled.append(
                    CompiledRewriteRule(id: rule.id, regex: regex, template: template, last: rule.last, condition: condition))
                if usesPrefilter { literals.append(RequiredLiteral.extract(from: rule.match)) }
            }
        }
        guard issues.isEmpty else {
            throw RuleValidationError(issues: issues)
        }
        self.rules = rules
        self.compiled = compiled
        self.firedAlone = firedAlone
        self.options = options
        let previousPrefilter = reuse == nil ? nil : previous?.prefilter
        self.prefilter =
            usesPrefilter
            ? LiteralPrefilter(
                literals: literals, previous: previousPrefilter, previousIndex: previousPrefilter == nil ? [] : previousIndex)
            : nil
        let previousGate = reuse == nil ? nil : previous?.prefixGate
        self.prefixGate =
            usesPrefilter
            ? AnchoredPrefixGate(
                patterns: rules.lazy.map(\.match), previous: previousGate, previousIndex: previousGate == nil ? [] : previousIndex)
            : nil
    }

    /// Rewrites `url` with the rules, top to bottom, in one pass. A rule with a `when` that
    /// does not hold for `context` is skipped before its regex runs.
    /// - Returns: the final URL, the rules that fired, rules whose result did not parse and
    ///   rules that hit a PCRE2 limit.
    public func rewrite(_ url: ParsedURL, context: RequestContext = RequestContext()) -> RewriteOutcome {
        var current = url
        var steps: [RewriteOutcome.Step] = []
        var errors: [RewriteOutcome.RuleError] = []
        var limitHits: [Int] = []
        var start = 0
        while start < compiled.count {
            var text = current.string
            let fired = text.withUTF8 { subject in
                firstFiring(
                    from: start, url: current, subject: subject, context: context, errors: &errors, limitHits: &limitHits)
            }
            guard let (index, rewritten) = fired else { break }
            steps.append(RewriteOutcome.Step(ruleIndex: index, ruleID: compiled[index].id, url: rewritten))
            current = rewritten
            if compiled[index].last { break }
            start = index + 1
        }
        return RewriteOutcome(url: current, steps: steps, errors: errors, limitHits: limitHits)
    }

    /// The first rule at or after `start` that fires on `url` (whose string's UTF-8 is
    /// `subject`), with the URL it produces.
    private func firstFiring(
        from start: Int,
        url: ParsedURL,
        subject: UnsafeBufferPointer<UInt8>,
        context: RequestContext,
        errors: inout [RewriteOutcome.RuleError],
        limitHits: inout [Int]
    ) -> (Int, ParsedURL)? {
        guard let prefilter else {
            for index in start..<compiled.count {
                if let rewritten = apply(index, url: url, subject: subject, context: context, errors: &errors, limitHits: &limitHits) {
                    return (index, rewritten)
                }
            }
            return nil
        }
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: prefilter.wordCount) { words in
            prefilter.markCandidates(in: subject, into: words)
            var wordIndex = start >> 6
            // Drop the rules before `start` from the first word.
            var word = wordIndex < words.count ? words[wordIndex] & (~0 << UInt64(start & 63)) : 0
            while wordIndex < words.count {
                while word != 0 {
                    let index = wordIndex << 6 + word.trailingZeroBitCount
                    word &= word - 1
                    guard prefilter.confirms(rule: index, in: subject) else { continue }
                    if let rewritten = apply(index, url: url, subject: subject, context: context, errors: &errors, limitHits: &limitHits) {
                        return (index, rewritten)
                    }
                }
                wordIndex += 1
                if wordIndex < words.count { word = words[wordIndex] }
            }
            return nil
        }
    }

    /// How the full pass of ``rewrite(_:context:)`` starts on the URL whose UTF-8 is
    /// `subject`, found without a ``ParsedURL`` (only a rule that matches needs the URL's
    /// parts), so that a caller can take a cheaper road for the common cases.
    enum FirstMatch {
        /// No rule's regex matches, fails or hits a limit: the pass leaves the URL as it is
        /// and records nothing.
        case none
        /// The first rule whose regex matches, before any regex failed or hit a limit.
        case match(rule: Int, RegexMatch)
        /// A regex failed or hit a limit first: only the full pass records that.
        case other
    }

    /// The first rule, in the order of the pass, whose regex does anything on `subject` but
    /// not match (see ``FirstMatch``). `subject` must be valid UTF-8 (a string's bytes): the
    /// regexes run without PCRE2's check of it.
    func firstMatch(on subject: UnsafeBufferPointer<UInt8>, context: RequestContext) -> FirstMatch {
        guard !compiled.isEmpty else { return .none }
        if let prefixGate, case let positions = prefixGate.candidates(for: subject),
            positions.count <= Self.gateCandidateLimit || prefilter == nil
        {
            for position in positions {
                if let rule = prefixGate.candidate(at: position, for: subject),
                    let found = tryRule(rule, subject: subject, context: context)
                {
                    return found
                }
            }
            return .none
        }
        guard let prefilter else {
            for index in compiled.indices {
                if let found = tryRule(index, subject: subject, context: context) { return found }
            }
            return .none
        }
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: prefilter.wordCount) { words in
            prefilter.markCandidates(in: subject, into: words)
            for wordIndex in 0..<words.count {
                var word = words[wordIndex]
                while word != 0 {
                    let index = wordIndex << 6 + word.trailingZeroBitCount
                    word &= word - 1
                    if prefilter.confirms(rule: index, in: subject),
                        let found = tryRule(index, subject: subject, context: context)
                    {
                        return found
                    }
                }
            }
            return .none
        }
    }

    /// The most candidates the prefix gate may give a URL before the prefilter's scan is the
    /// cheaper filter: literals cut short by a quantifier (`^https{0,1}://…` gives `http`) file
    /// many rules under one key, and every candidate costs a regex search.
    static let gateCandidateLimit = 4

    /// What rule `index` does on `subject`; `nil` when its condition does not hold or its
    /// regex does not match.
    private func tryRule(_ index: Int, subject: UnsafeBufferPointer<UInt8>, context: RequestContext) -> FirstMatch? {
        switch search(rule: index, subject: subject, context: context) {
        case nil, .noMatch: return nil
        case .match(let match): return .match(rule: index, match)
        case .limitExceeded, .failed: return .other
        }
    }

    /// Rule `index`'s regex on `subject`, or `nil` when the rule's condition does not hold for
    /// `context`. Conditions are cheap: they are checked before PCRE2 (the prefilter only
    /// narrows the candidates; a skipped rule is as if its regex had not matched).
    private func search(
        rule index: Int, subject: UnsafeBufferPointer<UInt8>, context: RequestContext
    ) -> RegexSearchResult? {
        // The fields one at a time: a copy of the whole rule retains every reference it holds,
        // and a URL may try dozens of rules.
        if let condition = compiled[index].condition, !condition.holds(context, ruleID: compiled[index].id) { return nil }
        return compiled[index].regex.search(subject, isValidUTF8: true)
    }

    /// `[id]` of rule `index` (shared, not allocated), and whether rewriting stops after it.
    func firedAloneAndLast(ofRule index: Int) -> (ids: [String], last: Bool) {
        (firedAlone[index], compiled[index].last)
    }

    /// Calls `body` with the target of rule `index` expanded for `match` on the URL whose UTF-8
    /// is `subject` and whose components are `parts` (the text the full pass parses as the
    /// rewritten URL), written to a buffer sized once.
    func withExpandedTarget<Result>(
        ofRule index: Int, parts: URLParts, subject: UnsafeBufferPointer<UInt8>, match: RegexMatch,
        _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        let template = compiled[index].template
        // One array sized for the longest expansion: a stack buffer would save this allocation
        // but costs more instructions than the allocation does.
        let expanded = [UInt8](unsafeUninitializedCapacity: template.expansionLimit(subjectCount: subject.count)) {
            $1 = template.expand(parts: parts, subject: subject, match: match, into: $0)
        }
        return expanded.withUnsafeBufferPointer(body)
    }

    /// Runs rule `index` on `url`; returns the rewritten URL when it fires.
    private func apply(
        _ index: Int,
        url: ParsedURL,
        subject: UnsafeBufferPointer<UInt8>,
        context: RequestContext,
        errors: inout [RewriteOutcome.RuleError],
        limitHits: inout [Int]
    ) -> ParsedURL? {
        switch search(rule: index, subject: subject, context: context) {
        case nil, .noMatch:
            return nil
        case .limitExceeded:
            limitHits.append(index)
            return nil
        case .failed(let code, let message):
            errors.append(
                RewriteOutcome.RuleError(
                    ruleIndex: index, ruleID: compiled[index].id, kind: .matchFailed,
                    message: "regex match failed (PCRE2 error \(code)): \(message)", rewrittenText: nil))
            return nil
        case .match(let match):
            switch rewrittenURL(ofRule: index, url: url, subject: subject, match: match) {
            case .success(let rewritten):
                return rewritten
            case .failure(let refusal):
                errors.append(
                    RewriteOutcome.RuleError(
                        ruleIndex: index, ruleID: compiled[index].id, kind: .invalidResult, message: refusal.message,
                        rewrittenText: refusal.text))
                return nil
            }
        }
    }

    /// Why a rule that matched gives no URL.
    struct ResultRefusal: Error {
        /// What is wrong, as ``RewriteOutcome/RuleError/message`` says it.
        let message: String
        /// The expanded target, when it was not refused for its length.
        let text: String?
    }

    /// Rule `index`'s target expanded for `match` on `url` (whose UTF-8 is `subject`), parsed;
    /// refused when it does not parse or is longer than ``maximumRewrittenBytes``.
    func rewrittenURL(
        ofRule index: Int, url: ParsedURL, subject: UnsafeBufferPointer<UInt8>, match: RegexMatch
    ) -> Result<ParsedURL, ResultRefusal> {
        let text = compiled[index].template.expand(url: url, subject: subject, match: match)
        let count = text.utf8.count
        guard count <= Self.maximumRewrittenBytes else {
            return .failure(
                ResultRefusal(
                    message: "the rewritten URL would be \(count) bytes, more than the \(Self.maximumRewrittenBytes) a rule may make",
                    text: nil))
        }
        do {
            return .success(try ParsedURL.parse(text))
        } catch {
            return .failure(ResultRefusal(message: "rewritten URL \"\(text)\" is invalid: \(error)", text: text))
        }
    }
}
