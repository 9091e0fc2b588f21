import Logging
import Synchronization

/// The admin tokens in force. They are read from their environment variables and files at
/// start and again at every successful reload (`SIGHUP`, the watcher, `POST /admin/reload`), so
/// that a token can be rotated without a restart: change the variable's value or the file's
/// content, or point the setting elsewhere, and reload.
///
/// A weak token (``AdminTokenStrength``) or a token file that cannot be read stops the start;
/// at a reload it fails the reload, and the tokens in force stay.
///
/// Admin requests are rare, so one short lock per admin request costs nothing that matters;
/// `/resolve` never reads it.
package final class AdminTokenHolder: Sendable {
    private let tokens: Mutex<[AdminToken]>
    /// Where the secrets of `token_env` are read: the process's environment, or what a test gives.
    private let environment: @Sendable () -> [String: String]

    /// A holder of fixed tokens, with an empty environment to read at a refresh.
    package init(_ tokens: [AdminToken]) {
        self.tokens = Mutex(tokens)
        self.environment = { [:] }
    }

    /// The tokens `settings` names, read from `environment` and their files now and at every
    /// ``refresh(settings:logger:)``.
    ///
    /// - Throws: ``AdminTokenErrors``, every token that is weak or cannot be read.
    package init(
        settings: ServerSettings, environment: @escaping @Sendable () -> [String: String], logger: Logger
    ) throws(AdminTokenErrors) {
        self.environment = environment
        self.tokens = Mutex(try Self.tokens(settings: settings, environment: environment(), logger: logger))
    }

    /// The tokens in force; empty (admin API disabled) while none is set.
    package var current: [AdminToken] { tokens.withLock { $0 } }

    /// Replaces the tokens with those `settings` names, read from the environment and their
    /// files as they are now; on any problem the tokens in force stay.
    ///
    /// - Throws: ``AdminTokenErrors``, every token that is weak or cannot be read.
    package func refresh(settings: ServerSettings, logger: Logger) throws(AdminTokenErrors) {
        let fresh = try Self.tokens(settings: settings, environment: environment(), logger: logger)
        tokens.withLock { $0 = fresh }
    }

    /// The admin tokens `settings` names: the one of `admin_token_file` or `admin_token_env`
    /// (named `admin`, role `write`) and those of `admin_tokens`. A token whose variable is unset
    /// is disabled, with a warning.
    ///
    /// - Throws: ``AdminTokenErrors``, every token that is weak or whose file cannot be read.
    static func tokens(
        settings: ServerSettings, environment: [String: String], logger: Logger
    ) throws(AdminTokenErrors) -> [AdminToken] {
        var tokens: [AdminToken] = []
        var errors: [AdminTokenError] = []
        let named = [AdminTokenSetting(name: "admin", source: settings.adminTokenSource, role: .write)] + settings.adminTokens
        for setting in named {
            do throws(AdminTokenError) {
                guard let secret = try setting.source.read(tokenName: setting.name, environment: environment) else {
                    if setting.name != "admin" {
                        logger.warning("admin token '\(setting.name)' is disabled: \(setting.source.settingDescription) is not set")
                    }
                    continue
                }
                if let problem = AdminTokenStrength.problem(with: secret) {
                    throw AdminTokenError(tokenName: setting.name, source: setting.source, problem: problem)
                }
                tokens.append(AdminToken(name: setting.name, secret: secret, role: setting.role))
            } catch {
                errors.append(error)
            }
        }
        guard errors.isEmpty else { throw AdminTokenErrors(errors: errors) }
        if tokens.isEmpty {
            logger.warning("admin API disabled: \(settings.adminTokenSource.settingDescription) is not set")
        }
        return tokens
    }
}
