/// Why a URL could not be resolved at all (a `400 invalid_url`).
public struct ResolveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Stable error code for the API body (`invalid_url`).
    public let code: String
    /// What is wrong.
    public let message: String

    package init(code: String = "invalid_url", message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
