/// What one rule pass did, in rule numbers and counts; the details went to its observer.
struct RulePassSummary {
    /// The first rule that fired, or -1.
    private(set) var firstFired = -1
    /// The rules that fired after the first (rules that are not `last`), in order; empty, and
    /// so not allocated, in the common case.
    private(set) var laterFired: ContiguousArray<Int> = []
    /// Rules that matched but gave no URL, or whose match failed.
    var errorCount = 0
    /// Rules whose regex hit a PCRE2 limit.
    var limitHitCount = 0
    /// Whether the pass asked the clock: a rule with a time window was tried, so the answer
    /// may differ at another time (a cache must not keep it).
    var consultedClock = false

    /// Whether a rule fired.
    var didRewrite: Bool { firstFired >= 0 }

    mutating func appendFired(_ rule: Int) {
        if firstFired < 0 { firstFired = rule } else { laterFired.append(rule) }
    }
}

extension RewriteEngine {
    /// One rule that fired: the URL it made and that URL's components.
    private struct FiredStep {
        let rule: Int
        let url: [UInt8]
        let parts: URLParts
    }

    /// The rule pass: rules top to bottom over the URL whose UTF-8 is `subject` (components
    /// `parts`); a rule that fires replaces the URL, and the pass stops after a `last` rule.
    /// Calls `body` with the final URL (`subject` itself when no rule fired), its components
    /// and what the pass did, and hands it the observer back; the final URL lives until `body`
    /// returns.
    ///
    /// The one pass behind resolving, `explain` and ``rewrite(_:context:)``: the uncommon cases
    /// (a rule that is not `last`, a refused result, a PCRE2 limit) are branches in it. Which
    /// rules are tried comes from the prefix gate or the literal prefilter, unless the observer
    /// visits every rule (they only narrow the candidates, so the answer is the same).
    ///
    /// - Parameter subject: valid UTF-8 (the regexes run without PCRE2's check of it);
    ///   `context` is a pointer so that the pass's closures capture no copy of it.
    func pass<Observer: RulePassObserver, Result>(
        over subject: UnsafeBufferPointer<UInt8>, parts: URLParts, context: UnsafePointer<RequestContext>,
        observer: inout Observer,
        _ body: (
            _ url: UnsafeBufferPointer<UInt8>, _ parts: URLParts, _ summary: RulePassSummary, _ observer: inout Observer
        ) -> Result
    ) -> Result {
        var summary = RulePassSummary()
        var current: FiredStep?
        var start = 0
        while start < compiled.count {
            let step: FiredStep?
            if let current {
                step = current.url.withUnsafeBufferPointer { url in
                    firstFiring(
                        from: start, subject: url, parts: current.parts, context: context, observer: &observer,
                        summary: &summary)
                }
            } else {
                step = firstFiring(
                    from: start, subject: subject, parts: parts, context: context, observer: &observer, summary: &summary)
            }
            guard let step else { break }
            summary.appendFired(step.rule)
            current = step
            if compiled[step.rule].last { break }
            start = step.rule + 1
        }
        guard let current else { return body(subject, parts, summary, &observer) }
        return current.url.withUnsafeBufferPointer { body($0, current.parts, summary, &observer) }
    }

    /// The ids of the rules a pass fired, in order: for the common single rule, a list made
    /// once per rule and shared.
    func firedRuleIDs(_ summary: RulePassSummary) -> [String] {
        guard summary.didRewrite else { return [] }
        guard !summary.laterFired.isEmpty else { return firedAlone[summary.firstFired] }
        return [compiled[summary.firstFired].id] + summary.laterFired.map { compiled[$0].id }
    }

    /// The first rule at or after `start` that fires on `subject`.
    private func firstFiring<Observer: RulePassObserver>(
        from start: Int, subject: UnsafeBufferPointer<UInt8>, parts: URLParts, context: UnsafePointer<RequestContext>,
        observer: inout Observer, summary: inout RulePassSummary
    ) -> FiredStep? {
        if Observer.visitsEveryRule {
            for rule in start..<compiled.count {
                if let prefilter, !prefilter.confirms(rule: rule, in: subject) {
                    observer.ruledOutByPrefilter(rule, subject: subject)
                    continue
                }
                if let step = tryRule(rule, subject, parts, context, &observer, &summary) { return step }
            }
            return nil
        }
        if let prefixGate, case let positions = prefixGate.candidates(for: subject),
            positions.count <= Self.gateCandidateLimit || prefilter == nil
        {
            // A rule listed under two spellings with the same key comes twice in a row: it is
            // tried once.
            var lastTried = -1
            for position in positions {
                guard let rule = prefixGate.candidate(at: position, for: subject), rule >= start, rule != lastTried else {
                    continue
                }
                lastTried = rule
                if let step = tryRule(rule, subject, parts, context, &observer, &summary) { return step }
            }
            return nil
        }
        guard let prefilter else {
            for rule in start..<compiled.count {
                if let step = tryRule(rule, subject, parts, context, &observer, &summary) { return step }
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
                    let rule = wordIndex << 6 + word.trailingZeroBitCount
                    word &= word - 1
                    guard prefilter.confirms(rule: rule, in: subject) else { continue }
                    if let step = tryRule(rule, subject, parts, context, &observer, &summary) { return step }
                }
                wordIndex += 1
                if wordIndex < words.count { word = words[wordIndex] }
            }
            return nil
        }
    }

    /// The most candidates the prefix gate may give a URL before the prefilter's scan is the
    /// cheaper filter: literals cut short by a quantifier (`^https{0,1}://…` gives `http`) file
    /// many rules under one key, and every candidate costs a regex search.
    static let gateCandidateLimit = 4

    /// Runs rule `rule` on `subject`: the URL it makes when it fires, `nil` otherwise.
    private func tryRule<Observer: RulePassObserver>(
        _ rule: Int, _ subject: UnsafeBufferPointer<UInt8>, _ parts: URLParts, _ context: UnsafePointer<RequestContext>,
        _ observer: inout Observer, _ summary: inout RulePassSummary
    ) -> FiredStep? {
        if compiled[rule].condition?.hasTimeWindow == true { summary.consultedClock = true }
        switch search(rule: rule, subject: subject, context: context) {
        case nil:
            observer.conditionFailed(rule, subject: subject)
            return nil
        case .noMatch:
            observer.didNotMatch(rule, subject: subject)
            return nil
        case .limitExceeded:
            summary.limitHitCount += 1
            observer.hitLimit(rule, subject: subject)
            return nil
        case .failed(let code, let message):
            summary.errorCount += 1
            observer.failed(
                rule, subject: subject,
                error: ruleError(rule, .matchFailed, "regex match failed (PCRE2 error \(code)): \(message)", text: nil))
            return nil
        case .match(let match):
            let template = compiled[rule].template
            // One array sized for the longest expansion: a stack buffer would save this allocation
            // but costs more instructions than the allocation does.
            var output = [UInt8](unsafeUninitializedCapacity: template.expansionLimit(subjectCount: subject.count)) {
                $1 = template.expand(parts: parts, subject: subject, match: match, into: $0)
            }
            // `$#1` may decode to bytes that are not UTF-8: they are replaced as a `String` would.
            if template.decodesEscapes, output.withUnsafeBufferPointer({ UTF8Validation.firstInvalidIndex(in: $0) }) != nil {
                output = Array(String(decoding: output, as: UTF8.self).utf8)
            }
            guard output.count <= Self.maximumRewrittenBytes else {
                summary.errorCount += 1
                let message =
                    "the rewritten URL would be \(output.count) bytes, more than the \(Self.maximumRewrittenBytes) a rule may make"
                observer.failed(rule, subject: subject, error: ruleError(rule, .invalidResult, message, text: nil))
                return nil
            }
            guard let outputParts = output.withUnsafeBufferPointer({ try? URLScanner(bytes: $0).scan() }) else {
                summary.errorCount += 1
                let text = String(decoding: output, as: UTF8.self)
                let reason: String
                do {
                    _ = try ParsedURL.parse(text)
                    reason = "it does not parse"
                } catch {
                    reason = "\(error)"
                }
                observer.failed(
                    rule, subject: subject,
                    error: ruleError(rule, .invalidResult, "rewritten URL \"\(text)\" is invalid: \(reason)", text: text))
                return nil
            }
            output.withUnsafeBufferPointer { observer.fired(rule, subject: subject, match: match, output: $0) }
            return FiredStep(rule: rule, url: output, parts: outputParts)
        }
    }

    private func ruleError(_ rule: Int, _ kind: RewriteOutcome.RuleError.Kind, _ message: String, text: String?)
        -> RewriteOutcome.RuleError
    {
        RewriteOutcome.RuleError(ruleIndex: rule, ruleID: compiled[rule].id, kind: kind, message: message, rewrittenText: text)
    }

    /// Rule `index`'s regex on `subject`, or `nil` when the rule's condition does not hold for
    /// `context`. Conditions are cheap: they are checked before PCRE2 (the prefilter only
    /// narrows the candidates; a skipped rule is as if its regex had not matched).
    private func search(
        rule index: Int, subject: UnsafeBufferPointer<UInt8>, context: UnsafePointer<RequestContext>
    ) -> RegexSearchResult? {
        // The fields one at a time: a copy of the whole rule retains every reference it holds,
        // and a URL may try dozens of rules.
        if let condition = compiled[index].condition, !condition.holds(context.pointee, ruleID: compiled[index].id) {
            return nil
        }
        return compiled[index].regex.search(subject, isValidUTF8: true)
    }
}
