/// Why a batch of rewrite rules was refused. A batch is all-or-nothing, and every problem
/// found is reported, in rule order.
///
/// ```
/// rule #2 (id "promo"): target: unknown variable `$foo`; known: … (at offset 14)
/// ```
public struct RuleValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The rule field a problem is in.
    public enum Field: String, Sendable, Hashable {
        /// The rule's `id`.
        case id
        /// The rule's `match` regex.
        case match
        /// The rule's `target` template.
        case target
        /// The rule's `when` conditions.
        case when
    }

    /// The category of a problem.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case emptyID = "empty_id"
            case duplicateID = "duplicate_id"
            case emptyMatch = "empty_match"
            case invalidRegex = "invalid_regex"
            case invalidTemplate = "invalid_template"
            case invalidCondition = "invalid_condition"
        }

        private let base: Base

        /// The rule's `id` is empty.
        public static let emptyID = Code(base: .emptyID)
        /// An earlier rule of the batch has the same `id`.
        public static let duplicateID = Code(base: .duplicateID)
        /// `match` is empty (it would match every URL).
        public static let emptyMatch = Code(base: .emptyMatch)
        /// `match` does not compile; the message is PCRE2's.
        public static let invalidRegex = Code(base: .invalidRegex)
        /// `target` is not a valid template (unknown variable, group above the regex's count, …).
        public static let invalidTemplate = Code(base: .invalidTemplate)
        /// A `when` condition is malformed (unknown platform, bad version range or date, percent out of 0…100).
        public static let invalidCondition = Code(base: .invalidCondition)

        /// A stable snake_case name, e.g. `invalid_regex`.
        public var description: String { base.rawValue }
    }

    /// One problem with one rule.
    public struct Issue: Sendable, Hashable, CustomStringConvertible {
        /// 0-based index of the rule in the batch.
        public let ruleIndex: Int
        /// The rule's id as given (may be empty).
        public let ruleID: String
        /// The field the problem is in.
        public let field: Field
        /// The category.
        public let code: Code
        /// What is wrong and how to fix it.
        public let message: String
        /// 0-based offset, in characters, in the field's text, when known.
        public let offset: Int?

        package init(ruleIndex: Int, ruleID: String, field: Field, code: Code, message: String, offset: Int? = nil) {
            self.ruleIndex = ruleIndex
            self.ruleID = ruleID
            self.field = field
            self.code = code
            self.message = message
            self.offset = offset
        }

        /// `rule #2 (id "promo"): target: <message> (at offset 14)`.
        public var description: String {
            let at = offset.map { " (at offset \($0))" } ?? ""
            return "rule #\(ruleIndex) (id \"\(ruleID)\"): \(field.rawValue): \(message)\(at)"
        }
    }

    /// Every problem found, in rule order; never empty.
    public let issues: [Issue]

    package init(issues: [Issue]) {
        self.issues = issues
    }

    /// Every issue, one per line, after a header line when there are several.
    public var description: String {
        let header = issues.count == 1 ? "invalid rewrite rule: " : "\(issues.count) problems in rewrite rules:\n"
        return header + issues.map(\.description).joined(separator: "\n")
    }
}
