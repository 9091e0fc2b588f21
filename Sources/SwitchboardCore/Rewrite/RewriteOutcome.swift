/// What ``RewriteEngine/rewrite(_:)`` did to one URL.
public struct RewriteOutcome: Sendable, Hashable {
    /// One rule that fired.
    public struct Step: Sendable, Hashable {
        /// 0-based index of the rule in the engine.
        public let ruleIndex: Int
        /// The rule's id.
        public let ruleID: String
        /// The URL after this rule.
        public let url: ParsedURL
    }

    /// A rule that matched but could not apply; it counts as not fired.
    public struct RuleError: Sendable, Hashable, CustomStringConvertible {
        /// The category of a rule error.
        public struct Kind: Sendable, Hashable, CustomStringConvertible {
            private enum Base: String, Sendable, Hashable {
                case invalidResult = "invalid_result"
                case matchFailed = "match_failed"
            }

            private let base: Base

            /// The expanded target is not a valid URL; the URL before the rule is kept.
            public static let invalidResult = Kind(base: .invalidResult)
            /// PCRE2 failed for a reason other than no match or a limit.
            public static let matchFailed = Kind(base: .matchFailed)

            /// A stable snake_case name.
            public var description: String { base.rawValue }
        }

        /// 0-based index of the rule in the engine.
        public let ruleIndex: Int
        /// The rule's id.
        public let ruleID: String
        /// The category.
        public let kind: Kind
        /// What went wrong.
        public let message: String
        /// For ``Kind/invalidResult``, the expanded target that did not parse.
        public let rewrittenText: String?

        /// `rule #3 (id "promo"): <message>`.
        public var description: String { "rule #\(ruleIndex) (id \"\(ruleID)\"): \(message)" }
    }

    /// The final URL (the input when no rule fired).
    public let url: ParsedURL
    /// The rules that fired, in order.
    public let steps: [Step]
    /// Rules that matched but whose result was refused, in order.
    public let errors: [RuleError]
    /// Indices of rules whose match hit a PCRE2 limit (counted as no match), in order.
    public let limitHits: [Int]

    /// Whether any rule fired.
    public var didRewrite: Bool { !steps.isEmpty }
    /// Indices of the rules that fired, in order.
    public var firedRuleIndices: [Int] { steps.map(\.ruleIndex) }
    /// Ids of the rules that fired, in order.
    public var firedRuleIDs: [String] { steps.map(\.ruleID) }
}
