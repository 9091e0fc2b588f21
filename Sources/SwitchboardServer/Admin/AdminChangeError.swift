/// Why an admin change was refused; nothing was changed. A domain error: the API layer maps
/// its ``Kind`` to an HTTP status in one place (`APIError+AdminChangeError.swift`).
package struct AdminChangeError: Error, Sendable, CustomStringConvertible {
    /// What kind of refusal it is.
    package enum Kind: Sendable, Equatable {
        /// The change is malformed or invalid on its own (a bad regex, an unknown key).
        case invalid
        /// The change clashes with what exists (a taken id, an item owned by the config).
        case conflict
        /// The change names a rule, route or version that does not exist.
        case notFound
        /// The change was made against another version than the current one (`If-Match`).
        case versionMismatch
        /// The change would go over a configured limit.
        case limitExceeded
        /// The admin store cannot be reached; retry later.
        case storeUnavailable
        /// The admin store could not persist the change (a full disk, a refused write).
        case persistenceFailed
    }

    package let kind: Kind
    /// A stable `snake_case` code for clients (`conflict`, `config_rule`, `invalid_rule`, …).
    package let code: String
    /// What is wrong and how to fix it.
    package let message: String
    /// Every problem, when the change was validated as a whole.
    package let issues: [ConfigIssue]

    package init(_ kind: Kind, code: String, message: String, issues: [ConfigIssue] = []) {
        self.kind = kind
        self.code = code
        self.message = message
        self.issues = issues
    }

    package var description: String { message }
}
