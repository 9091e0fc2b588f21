import Foundation

extension ServerSettings {
    /// The settings of `configDirectory/switchboard.yaml` as far as they can be read, before
    /// the server loads its config (to choose the log format), with the settings `environment`
    /// gives; `nil` when they cannot be read (the load reports why).
    package static func peek(configDirectory: String, environment: [String: String]) -> ServerSettings? {
        guard let text = try? String(contentsOfFile: configDirectory + "/switchboard.yaml", encoding: .utf8) else {
            return nil
        }
        var issues: [ConfigIssue] = []
        return ConfigDirectory.decodeSettings(text, environment: SettingsEnvironment(environment), issues: &issues)
    }
}
