import SwitchboardCore

extension APIError {
    /// The refusal an error body of the API says, read back by a client (`switchboard admin`):
    /// the inverse of ``body``. `nil` when `body` is not an error body.
    package init?(status: Int, body: JSONValue) {
        guard let error = body["error"], let code = error["code"]?.stringValue, let message = error["message"]?.stringValue
        else { return nil }
        var issues: [ConfigIssue] = []
        if case .array(let listed)? = body["errors"] {
            issues = listed.map { issue in
                ConfigIssue(
                    file: issue["file"]?.stringValue, item: issue["item"]?.stringValue,
                    message: issue["message"]?.stringValue ?? "", code: issue["code"]?.stringValue)
            }
        }
        self.init(status: status, code: code, message: message, issues: issues)
    }
}
