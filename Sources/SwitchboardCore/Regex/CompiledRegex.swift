// STUB — the rewrite helper replaces this with the real PCRE2 wrapper. The API below is fixed.

/// A PCRE2 regular expression compiled once (JIT when available) and safe to share.
package final class CompiledRegex: @unchecked Sendable {
    /// The source text of the regex.
    package let pattern: String
    /// Number of capture groups.
    package let captureCount: Int

    /// Compiles `pattern` (UTF mode).
    /// - Parameter wholeMatch: anchor at both ends (used for `:name<REGEX>` constraints).
    /// - Throws: ``RegexCompileError`` with PCRE2's message and the offset.
    package init(_ pattern: String, wholeMatch: Bool = false) throws(RegexCompileError) {
        self.pattern = pattern
        self.captureCount = 0
    }

    /// Whether the regex matches the whole of `bytes` (UTF-8). A match that hits the
    /// match/depth limit counts as no match.
    package func fullyMatches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        false
    }
}

/// Why a regex did not compile.
public struct RegexCompileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// PCRE2's message.
    public let message: String
    /// Offset in the pattern where PCRE2 stopped.
    public let offset: Int

    package init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    public var description: String { "\(message) at offset \(offset)" }
}
