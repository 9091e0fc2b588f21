/// One problem found in the config directory or in an admin request: where, and what.
package struct ConfigIssue: Error, Sendable, Hashable, CustomStringConvertible, Codable {
    /// The file (relative to the config directory), or `nil` for admin input.
    package var file: String?
    /// The route or rule concerned, when known.
    package var item: String?
    /// What is wrong and how to fix it.
    package var message: String
    /// A stable code when known (`conflict`, `duplicate_id`, `invalid_regex`, …).
    package var code: String?
    /// Where in `file` the problem is, when known: the line of a YAML syntax error, of the
    /// key a schema error names, or of the route or rule `item` names.
    package var position: SourcePosition?

    package init(file: String?, item: String? = nil, message: String, code: String? = nil, position: SourcePosition? = nil) {
        self.file = file
        self.item = item
        self.message = message
        self.code = code
        self.position = position
    }

    /// Whether this is a clash with an existing route or rule rather than invalid input.
    package var isConflict: Bool { code == "conflict" || code == "duplicate_id" }

    /// Whether the config could not be read at all (a missing directory, a file that cannot be
    /// opened), as opposed to read and found wrong.
    package var isUnreadable: Bool { code == ConfigIssue.unreadableCode }

    /// The code of an issue that says the config could not be read.
    package static let unreadableCode = "unreadable"

    package var description: String {
        [file, item.map { "'\($0)'" }, message].compactMap { $0 }.joined(separator: ": ")
    }
}

/// Every problem found while loading or validating a config, reported together.
package struct ConfigIssues: Error, Sendable, CustomStringConvertible {
    package var issues: [ConfigIssue]

    package init(_ issues: [ConfigIssue]) { self.issues = issues }

    package var description: String {
        issues.map(\.description).joined(separator: "\n")
    }
}
