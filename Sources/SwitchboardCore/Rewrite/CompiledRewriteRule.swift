/// A validated ``RewriteRule`` with its regex and template compiled.
struct CompiledRewriteRule: Sendable {
    let id: String
    let regex: CompiledRegex
    let template: RewriteTemplate
    let last: Bool
    /// `nil` when the rule has no `when`.
    let condition: CompiledCondition?
}
