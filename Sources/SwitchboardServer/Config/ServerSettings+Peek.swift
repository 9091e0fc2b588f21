import Foundation

extension ServerSettings {
    /// The settings of `configDirectory/switchboard.yaml` as far as they can be read, before
    /// the server loads its config (to choose the log format); `nil` when they cannot be (the
    /// load reports why).
    package static func peek(configDirectory: String) -> ServerSettings? {
        guard let text = try? String(contentsOfFile: configDirectory + "/switchboard.yaml", encoding: .utf8) else {
            return nil
        }
        return try? ConfigDirectory.decodeYAML(ServerSettings.self, from: text)
    }
}
