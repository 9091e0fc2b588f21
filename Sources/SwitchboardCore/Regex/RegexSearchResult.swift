/// The result of ``CompiledRegex/search(_:)``.
package enum RegexSearchResult: Sendable, Hashable {
    /// The regex matched.
    case match(RegexMatch)
    /// The regex does not match the subject.
    case noMatch
    /// PCRE2 gave up on a match, depth, heap or JIT stack limit; treat as no match and count it.
    case limitExceeded
    /// Another PCRE2 error (for example invalid UTF-8 in the subject), with PCRE2's code
    /// and message.
    case failed(code: Int32, message: String)
}
