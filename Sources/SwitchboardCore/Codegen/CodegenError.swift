/// Why typed routes could not be generated from a config.
public struct CodegenError: Error, Sendable, CustomStringConvertible {
    /// What is wrong and how to fix it.
    public let message: String

    public var description: String { message }
}
