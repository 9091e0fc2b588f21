import Logging
import Synchronization

/// The admin tokens in force. They are read from the environment at start and again at every
/// successful reload (`SIGHUP`, the watcher, `POST /admin/reload`), so that a token can be
/// rotated without a restart: change the variable's value, or point `token_env` at another
/// variable, and reload.
///
/// Admin requests are rare, so one short lock per admin request costs nothing that matters;
/// `/resolve` never reads it.
package final class AdminTokenHolder: Sendable {
    private let tokens: Mutex<[AdminToken]>
    /// Where the secrets are read: the process's environment, or what a test gives.
    private let environment: @Sendable () -> [String: String]

    /// A holder of fixed tokens, with an empty environment to read at a refresh.
    package init(_ tokens: [AdminToken]) {
        self.tokens = Mutex(tokens)
        self.environment = { [:] }
    }

    /// The tokens `settings` names, read from `environment` now and at every ``refresh(settings:logger:)``.
    package init(settings: ServerSettings, environment: @escaping @Sendable () -> [String: String], logger: Logger) {
        self.environment = environment
        self.tokens = Mutex(Self.tokens(settings: settings, environment: environment(), logger: logger))
    }

    /// The tokens in force; empty (admin API disabled) while none is set.
    package var current: [AdminToken] { tokens.withLock { $0 } }

    /// Replaces the tokens with those `settings` names, read from the environment as it is now.
    package func refresh(settings: ServerSettings, logger: Logger) {
        let fresh = Self.tokens(settings: settings, environment: environment(), logger: logger)
        tokens.withLock { $0 = fresh }
    }

    /// The admin tokens set in `environment`: the one of `admin_token_env` (named `admin`,
    /// role `write`) and those of `admin_tokens`.
    static func tokens(settings: ServerSettings, environment: [String: String], logger: Logger) -> [AdminToken] {
        var tokens: [AdminToken] = []
        let named =
            [AdminTokenSetting(name: "admin", tokenEnv: settings.adminTokenEnv, role: .write)] + settings.adminTokens
        for setting in named {
            if let secret = environment[setting.tokenEnv], !secret.isEmpty {
                tokens.append(AdminToken(name: setting.name, secret: secret, role: setting.role))
            } else if setting.name != "admin" {
                logger.warning("admin token '\(setting.name)' is disabled: \(setting.tokenEnv) is not set")
            }
        }
        if tokens.isEmpty {
            logger.warning("admin API disabled: \(settings.adminTokenEnv) is not set")
        }
        return tokens
    }
}
