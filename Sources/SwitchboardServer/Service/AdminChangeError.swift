/// Why an admin change was refused; nothing was changed.
package struct AdminChangeError: Error, Sendable {
    package let status: Int
    package let code: String
    package let message: String
    /// Every problem, when the change was validated as a whole.
    package let issues: [ConfigIssue]

    package init(status: Int, code: String, message: String, issues: [ConfigIssue] = []) {
        self.status = status
        self.code = code
        self.message = message
        self.issues = issues
    }
}
