extension RewriteEngine {
    /// The rewrite pass of ``rewrite(_:context:)`` with a record of every rule tried. Slower
    /// (it runs per rule and describes each step); used for `explain` only, and tested to end
    /// exactly where ``rewrite(_:context:)`` does.
    public func explain(_ url: ParsedURL, context: RequestContext = RequestContext()) -> (url: ParsedURL, rules: [RuleTrace]) {
        var current = url
        var traces: [RuleTrace] = []
        var index = 0
        while index < compiled.count {
            let rule = compiled[index]
            var text = current.string
            let (result, reason, output) = text.withUTF8 { subject in
                evaluate(index, url: current, subject: subject, context: context)
            }
            traces.append(
                RuleTrace(index: index, id: rule.id, result: result, reason: reason, input: current.string, output: output?.string))
            index += 1
            if result == .fired, let output {
                current = output
                if rule.last { break }
            }
        }
        return (current, traces)
    }

    private func evaluate(
        _ index: Int, url: ParsedURL, subject: UnsafeBufferPointer<UInt8>, context: RequestContext
    ) -> (RuleTrace.Result, String, ParsedURL?) {
        let rule = compiled[index]
        if let prefilter, !prefilter.confirms(rule: index, in: subject) {
            let literal = String(decoding: prefilter.literals[index], as: UTF8.self)
            return (.skippedByPrefilter, "the regex needs the text '\(literal)', which the URL does not contain", nil)
        }
        if let condition = rule.condition, !condition.holds(context, ruleID: rule.id) {
            let failed = condition.verdicts(context, ruleID: rule.id).map { verdict in
                "\(verdict.condition) \(verdict.held ? "held" : "failed") (\(verdict.why))"
            }
            return (.conditionFalse, "when does not hold: " + failed.joined(separator: "; "), nil)
        }
        switch rule.regex.search(subject) {
        case .noMatch:
            return (.noMatch, "the regex does not match the URL", nil)
        case .limitExceeded:
            return (.error, "the regex hit the PCRE2 match or depth limit; counted as no match", nil)
        case .failed(let code, let message):
            return (.error, "the regex match failed (PCRE2 error \(code)): \(message)", nil)
        case .match(let match):
            switch rewrittenURL(ofRule: index, url: url, subject: subject, match: match) {
            case .success(let rewritten):
                let then = rule.last ? "rewriting stops (last: true)" : "the next rules see the new URL (last: false)"
                let held =
                    rule.condition.map { condition in
                        "when held: "
                            + condition.verdicts(context, ruleID: rule.id).map { "\($0.condition) (\($0.why))" }
                            .joined(separator: "; ") + "; "
                    } ?? ""
                return (
                    .fired,
                    "\(held)matched '\(String(decoding: UnsafeBufferPointer(rebasing: subject[match[0] ?? 0..<0]), as: UTF8.self))'; \(then)",
                    rewritten
                )
            case .failure(let refusal):
                return (.error, "\(refusal.message); the URL before this rule is kept", nil)
            }
        }
    }

    private func describe(_ context: RequestContext) -> String {
        let platform = context.platform ?? "no platform"
        let version = context.appVersion.map { "app version \($0)" } ?? "no app version"
        let device = context.deviceID.map { "device \($0)" } ?? "no device"
        return "this request (\(platform), \(version), \(device))"
    }
}
