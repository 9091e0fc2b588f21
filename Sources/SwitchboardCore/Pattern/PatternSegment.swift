/// One `/`-separated element of a route pattern.
public enum PatternSegment: Sendable, Hashable {
    /// A static segment, stored percent-decoded; compared case-sensitively.
    case literal(String)
    /// `:name` or `:name<constraint>`: one whole non-empty segment, captured decoded.
    case parameter(name: String, constraint: ParameterConstraint?)
    /// `*` or `*name`: the rest of the path (one or more segments), captured as `a/b/c`.
    case catchAll(name: String)
}

/// What a constrained parameter (`:id<int>`, `:id<uuid>`, `:id<REGEX>`) accepts.
///
/// The cases are declared in priority order: at one trie position `int` is tried before
/// `uuid`, and regexes are tried in the order of their text.
public enum ParameterConstraint: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// A decimal integer that fits in 64 bits: optional `-`, then 1–19 digits.
    case int
    /// A UUID in 8-4-4-4-12 hexadecimal form, any case.
    case uuid
    /// A PCRE2 regex the whole decoded segment must match.
    case regex(String)

    public var description: String {
        switch self {
        case .int: "int"
        case .uuid: "uuid"
        case .regex(let text): text
        }
    }
}
