import Foundation

/// The process's environment variables, as the command line reads them for the settings that
/// are not keys of `switchboard.yaml` (`SWITCHBOARD_CONFIG`, `SWITCHBOARD_LOG_LEVEL`).
enum ProcessEnvironment {
    /// Every variable.
    static var all: [String: String] { ProcessInfo.processInfo.environment }

    /// The value of `name`, or `nil` when it is unset or empty (an empty variable is ignored,
    /// as for the settings of `switchboard.yaml`).
    static func value(of name: String) -> String? {
        all[name].flatMap { $0.isEmpty ? nil : $0 }
    }
}
