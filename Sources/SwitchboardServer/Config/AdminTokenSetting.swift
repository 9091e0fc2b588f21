import SwitchboardCore

/// What an admin token may do. Each admin endpoint declares the role it needs
/// (``Endpoint/Access/admin(_:)``): reading (rules, routes, history, status, the table) needs
/// `read`, every change needs `write`; a `write` token may also read.
package enum AdminRole: String, Sendable, Hashable, Codable, CaseIterable {
    /// Reads only: dashboards, CI jobs that check what is live.
    case read
    /// Reads and changes everything.
    case write

    /// Whether a token of this role may call an endpoint that needs `needed`.
    package func allows(_ needed: AdminRole) -> Bool {
        self == .write || needed == .read
    }
}

/// One named admin token (`admin_tokens` in `switchboard.yaml`): the secret itself stays out
/// of the config, in the environment variable `token_env` or the file `token_file` (exactly one
/// of them); the name is what the history records, the role what it may do (`write` when not
/// given).
///
/// ```yaml
/// admin_tokens:
///   - { name: alice, token_env: SWITCHBOARD_TOKEN_ALICE }
///   - { name: dashboard, token_file: /run/secrets/dashboard-token, role: read }
/// ```
package struct AdminTokenSetting: Sendable, Hashable, Decodable {
    /// Who uses the token: letters, digits, `.`, `_`, `-`.
    package var name: String
    /// Where the secret is read.
    package var source: AdminTokenSource
    /// What the token may do.
    package var role: AdminRole

    package init(name: String, source: AdminTokenSource, role: AdminRole = .write) {
        self.name = name
        self.source = source
        self.role = role
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, role
        case tokenEnv = "token_env"
        case tokenFile = "token_file"
    }

    package init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        let roleText = try container.decodeIfPresent(String.self, forKey: .role) ?? AdminRole.write.rawValue
        guard let role = AdminRole(rawValue: roleText) else {
            throw DecodingError.dataCorruptedError(
                forKey: .role, in: container, debugDescription: "role of '\(name)' must be read or write, not '\(roleText)'")
        }
        self.role = role
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        guard !name.isEmpty, name.allSatisfy(allowed.contains) else {
            throw DecodingError.dataCorruptedError(
                forKey: .name, in: container,
                debugDescription: "token name '\(name)' must be non-empty letters, digits, '.', '_' or '-'")
        }
        let tokenEnv = try container.decodeIfPresent(String.self, forKey: .tokenEnv)
        let tokenFile = try container.decodeIfPresent(String.self, forKey: .tokenFile)
        switch (tokenEnv, tokenFile) {
        case (let variable?, nil) where !variable.isEmpty:
            source = .environment(variable)
        case (nil, let path?) where !path.isEmpty:
            source = .file(path)
        case (_?, _?):
            throw DecodingError.dataCorruptedError(
                forKey: .tokenFile, in: container, debugDescription: "token '\(name)' gives both token_env and token_file: keep one")
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .tokenEnv, in: container,
                debugDescription: "token '\(name)' needs a non-empty token_env (a variable) or token_file (a path)")
        }
    }
}
