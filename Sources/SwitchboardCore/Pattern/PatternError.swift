/// Why a route pattern was refused.
public struct PatternError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String
    /// What is wrong and how to fix it.
    public let message: String
    /// 0-based character index in `pattern` where the problem starts.
    public let position: Int

    /// An error in `pattern` at the character `position`.
    public init(pattern: String, message: String, position: Int) {
        self.pattern = pattern
        self.message = message
        self.position = position
    }

    public var description: String {
        "invalid pattern '\(pattern)': \(message) (at position \(position))"
    }
}
