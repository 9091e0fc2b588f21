import SwitchboardCore

/// `console:` in `switchboard.yaml`: the admin console at `/console` (design.md "Console").
/// It is off by default, so that a server exposes no page nobody asked for.
package struct ConsoleSettings: Sendable, Hashable, Codable {
    /// Whether `/console` serves the console; while off it is a `404`.
    package var enabled: Bool = false

    package init(enabled: Bool = false) {
        self.enabled = enabled
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case enabled
    }

    package init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        enabled = try container.decodeIfPresent(Bool.self, forKey: .enabled) ?? false
    }
}
