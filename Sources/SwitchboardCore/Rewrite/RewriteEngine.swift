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
    let firedAlone: [[String]]
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
        var recorder = OutcomeRecorder(engine: self)
        var text = url.string
        let parts = text.withUTF8 { try? URLScanner(bytes: $0).scan() }
        guard let parts else { return RewriteOutcome(url: url, steps: [], errors: [], limitHits: []) }
        text.withUTF8 { subject in
            withUnsafePointer(to: context) { context in
                pass(over: subject, parts: parts, context: context, observer: &recorder) { _, _, _, _ in }
            }
        }
        return RewriteOutcome(
            url: recorder.steps.last?.url ?? url, steps: recorder.steps, errors: recorder.errors, limitHits: recorder.limitHits)
    }

    /// The rule pass's observer behind ``rewrite(_:context:)``: every step, error and limit hit.
    private struct OutcomeRecorder: RulePassObserver {
        static var visitsEveryRule: Bool { false }
        let engine: RewriteEngine
        var steps: [RewriteOutcome.Step] = []
        var errors: [RewriteOutcome.RuleError] = []
        var limitHits: [Int] = []

        mutating func hitLimit(_ rule: Int, subject: UnsafeBufferPointer<UInt8>) {
            limitHits.append(rule)
        }

        mutating func failed(_ rule: Int, subject: UnsafeBufferPointer<UInt8>, error: RewriteOutcome.RuleError) {
            errors.append(error)
        }

        mutating func fired(
            _ rule: Int, subject: UnsafeBufferPointer<UInt8>, match: RegexMatch, output: UnsafeBufferPointer<UInt8>
        ) {
            let text = String(decoding: output, as: UTF8.self)
            // The pass made sure the output parses.
            guard let url = try? ParsedURL.parse(text) else { return }
            steps.append(RewriteOutcome.Step(ruleIndex: rule, ruleID: engine.compiled[rule].id, url: url))
        }
    }
}
