/// Why a rewrite target (or fallback) template was refused.
package struct TemplateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong and how to fix it.
    package let message: String
    /// 0-based offset, in characters, of the offending `$` in the template.
    package let offset: Int

    package init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    package var description: String { "\(message) (at offset \(offset))" }
}
