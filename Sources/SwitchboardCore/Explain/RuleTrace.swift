/// What happened to one rewrite rule while resolving a URL (`explain`).
public struct RuleTrace: Sendable, Hashable {
    /// How the rule ended.
    public enum Result: String, Sendable, Hashable {
        /// The literal prefilter skipped it: the URL lacks text its regex needs.
        case skippedByPrefilter
        /// Its `when` does not hold for this request.
        case conditionFalse
        /// Its regex does not match.
        case noMatch
        /// It matched and rewrote the URL.
        case fired
        /// It matched, but the result does not parse, or the match failed or hit a PCRE2 limit.
        case error
    }

    /// The rule's position in evaluation order (admin rules first).
    public let index: Int
    /// The rule's id.
    public let id: String
    /// What the rule did.
    public let result: Result
    /// Why, in words an operator can act on.
    public let reason: String
    /// The URL the rule saw.
    public let input: String
    /// For `fired`, the rewritten URL.
    public let output: String?

    /// The trace as JSON (`trace.rules[]` of `/resolve?explain=1`).
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("index", .number(Double(index))), ("id", .string(id)), ("result", .string(result.rawValue)),
            ("reason", .string(reason)), ("input", .string(input)),
        ]
        if let output { members.append(("output", .string(output))) }
        return .object(members)
    }
}
