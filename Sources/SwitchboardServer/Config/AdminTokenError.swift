/// Why an admin token is refused: what is wrong with it, and which setting gave it. The server
/// does not start with such a token, and a reload that reads one keeps the tokens in force.
///
/// ```
/// admin token 'admin' (token_env SWITCHBOARD_ADMIN_TOKEN) is 9 characters long: a token needs
/// at least 24; generate one with `openssl rand -hex 24`
/// ```
package struct AdminTokenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The token's name (`admin` for the one of `admin_token_env`/`admin_token_file`).
    package let tokenName: String
    /// The setting the secret came from.
    package let source: AdminTokenSource
    /// What is wrong and how to fix it.
    package let problem: String

    package var description: String {
        "admin token '\(tokenName)' (\(source.settingDescription)) \(problem)"
    }
}

/// Every admin token that was refused at once, so that one start or reload names them all.
package struct AdminTokenErrors: Error, Sendable, CustomStringConvertible {
    package let errors: [AdminTokenError]

    package var description: String { errors.map(\.description).joined(separator: "\n") }

    /// The errors as issues of `switchboard.yaml`, for a failed reload.
    var issues: [ConfigIssue] {
        errors.map { ConfigIssue(file: "switchboard.yaml", item: $0.tokenName, message: $0.description, code: "admin_token") }
    }
}
