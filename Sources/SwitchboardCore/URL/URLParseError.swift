/// Why a URL could not be parsed.
///
/// The message says what is wrong and, where it helps, how to fix it; ``position`` says where.
///
/// ```swift
/// do {
///     _ = try ParsedURL.parse("myapp://a b")
/// } catch {
///     print(error) // space is not allowed in a URL; percent-encode it as %20 (at position 9)
/// }
/// ```
public struct URLParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, for a human.
    public let message: String
    /// 0-based index, in characters, of the offending character in the input.
    public let position: Int

    /// Creates an error.
    /// - Parameters:
    ///   - message: What is wrong, for a human.
    ///   - position: 0-based index, in characters (`Character`), of the offending character.
    public init(message: String, position: Int) {
        self.message = message
        self.position = position
    }

    /// The message followed by the position, e.g. `invalid percent-escape '%G1' (at position 12)`.
    public var description: String { "\(message) (at position \(position))" }
}
