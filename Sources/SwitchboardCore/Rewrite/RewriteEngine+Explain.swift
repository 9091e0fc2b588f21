extension RewriteEngine {
    /// The rewrite pass of ``rewrite(_:context:)`` with a record of every rule tried: the same
    /// pass, observed rule by rule (used for `explain`).
    public func explain(_ url: ParsedURL, context: RequestContext = RequestContext()) -> (url: ParsedURL, rules: [RuleTrace]) {
        var recorder = RuleTraceRecorder(engine: self, context: context)
        var text = url.string
        guard let parts = text.withUTF8({ try? URLScanner(bytes: $0).scan() }) else { return (url, []) }
        let final = text.withUTF8 { subject in
            withUnsafePointer(to: context) { context in
                pass(over: subject, parts: parts, context: context, observer: &recorder) { final, _, summary, _ in
                    summary.didRewrite ? String(decoding: final, as: UTF8.self) : nil
                }
            }
        }
        return (final.flatMap { try? ParsedURL.parse($0) } ?? url, recorder.traces)
    }
}

/// The rule pass's observer behind `explain`: one ``RuleTrace`` per rule visited, with the
/// reason in words an operator can act on.
struct RuleTraceRecorder: RulePassObserver {
    static var visitsEveryRule: Bool { true }
    let engine: RewriteEngine
    let context: RequestContext
    private(set) var traces: [RuleTrace] = []

    init(engine: RewriteEngine, context: RequestContext) {
        self.engine = engine
        self.context = context
    }

    mutating func ruledOutByPrefilter(_ rule: Int, subject: UnsafeBufferPointer<UInt8>) {
        let literal = engine.prefilter.map { String(decoding: $0.literals[rule], as: UTF8.self) } ?? ""
        record(rule, .skippedByPrefilter, "the regex needs the text '\(literal)', which the URL does not contain", subject)
    }

    mutating func conditionFailed(_ rule: Int, subject: UnsafeBufferPointer<UInt8>) {
        let compiled = engine.compiled[rule]
        let failed = (compiled.condition?.verdicts(context, ruleID: compiled.id) ?? []).map { verdict in
            "\(verdict.condition) \(verdict.held ? "held" : "failed") (\(verdict.why))"
        }
        record(rule, .conditionFalse, "when does not hold: " + failed.joined(separator: "; "), subject)
    }

    mutating func didNotMatch(_ rule: Int, subject: UnsafeBufferPointer<UInt8>) {
        record(rule, .noMatch, "the regex does not match the URL", subject)
    }

    mutating func hitLimit(_ rule: Int, subject: UnsafeBufferPointer<UInt8>) {
        record(rule, .error, "the regex hit the PCRE2 match or depth limit; counted as no match", subject)
    }

    mutating func failed(_ rule: Int, subject: UnsafeBufferPointer<UInt8>, error: RewriteOutcome.RuleError) {
        let reason =
            error.kind == .matchFailed
            ? "the \(error.message)" : "\(error.message); the URL before this rule is kept"
        record(rule, .error, reason, subject)
    }

    mutating func fired(
        _ rule: Int, subject: UnsafeBufferPointer<UInt8>, match: RegexMatch, output: UnsafeBufferPointer<UInt8>
    ) {
        let compiled = engine.compiled[rule]
        let then = compiled.last ? "rewriting stops (last: true)" : "the next rules see the new URL (last: false)"
        let held =
            compiled.condition.map { condition in
                "when held: "
                    + condition.verdicts(context, ruleID: compiled.id).map { "\($0.condition) (\($0.why))" }
                    .joined(separator: "; ") + "; "
            } ?? ""
        let matched = String(decoding: UnsafeBufferPointer(rebasing: subject[match[0] ?? 0..<0]), as: UTF8.self)
        record(rule, .fired, "\(held)matched '\(matched)'; \(then)", subject, output: String(decoding: output, as: UTF8.self))
    }

    private mutating func record(
        _ rule: Int, _ result: RuleTrace.Result, _ reason: String, _ subject: UnsafeBufferPointer<UInt8>, output: String? = nil
    ) {
        traces.append(
            RuleTrace(
                index: rule, id: engine.compiled[rule].id, result: result, reason: reason,
                input: String(decoding: subject, as: UTF8.self), output: output))
    }
}
