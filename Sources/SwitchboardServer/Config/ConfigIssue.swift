/// One problem found in the config directory or in an admin request: where, and what.
public struct ConfigIssue: Error, Sendable, Hashable, CustomStringConvertible, Codable {
    /// The file (relative to the config directory), or `nil` for admin input.
    public var file: String?
    /// The route or rule concerned, when known.
    public var item: String?
    /// What is wrong and how to fix it.
    public var message: String
    /// A stable code when known (`conflict`, `duplicate_id`, `invalid_regex`, …).
    public var code: String?

    public init(file: String?, item: String? = nil, message: String, code: String? = nil) {
        self.file = file
        self.item = item
        self.message = message
        self.code = code
    }

    /// Whether this is a clash with an existing route or rule rather than invalid input.
    public var isConflict: Bool { code == "conflict" || code == "duplicate_id" }

    public var description: String {
        [file, item.map { "'\($0)'" }, message].compactMap { $0 }.joined(separator: ": ")
    }
}

/// Every problem found while loading or validating a config, reported together.
public struct ConfigIssues: Error, Sendable, CustomStringConvertible {
    public var issues: [ConfigIssue]

    public init(_ issues: [ConfigIssue]) { self.issues = issues }

    public var description: String {
        issues.map(\.description).joined(separator: "\n")
    }
}
