import SwitchboardCore

/// One named admin token (`admin_tokens` in `switchboard.yaml`): the secret itself stays in
/// the environment variable `token_env`; the name is what the history records.
///
/// ```yaml
/// admin_tokens:
///   - { name: alice, token_env: SWITCHBOARD_TOKEN_ALICE }
///   - { name: deploy-bot, token_env: SWITCHBOARD_TOKEN_DEPLOY }
/// ```
package struct AdminTokenSetting: Sendable, Hashable, Codable {
    /// Who uses the token: letters, digits, `.`, `_`, `-`.
    package var name: String
    /// The environment variable holding the secret.
    package var tokenEnv: String

    package init(name: String, tokenEnv: String) {
        self.name = name
        self.tokenEnv = tokenEnv
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name
        case tokenEnv = "token_env"
    }

    package init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        tokenEnv = try container.decode(String.self, forKey: .tokenEnv)
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        guard !name.isEmpty, name.allSatisfy(allowed.contains) else {
            throw DecodingError.dataCorruptedError(
                forKey: .name, in: container,
                debugDescription: "token name '\(name)' must be non-empty letters, digits, '.', '_' or '-'")
        }
        guard !tokenEnv.isEmpty else {
            throw DecodingError.dataCorruptedError(
                forKey: .tokenEnv, in: container, debugDescription: "token_env of '\(name)' is empty")
        }
    }
}
