/// Why a regex did not compile.
public struct RegexCompileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// PCRE2's message.
    public let message: String
    /// Offset in the pattern where PCRE2 stopped, in characters (PCRE2 counts UTF-8 bytes;
    /// the two agree for ASCII patterns).
    public let offset: Int

    package init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    public var description: String { "\(message) at offset \(offset)" }
}
