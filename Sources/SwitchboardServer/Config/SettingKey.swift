import SwitchboardCore

/// One key of a settings object in `switchboard.yaml`, declared once: its name, the property it
/// sets, how its value is checked, and when a change of it applies. A settings type lists its
/// keys (``KeyedSettings/keys``); its decoding, its unknown-key check and the start-only
/// comparison of a reload all read that list.
///
/// ```swift
/// static let keys: [SettingKey<ServerSettings>] = [
///     .value("listen", \.listen, .atStart),
///     .value("history_limit", \.historyLimit, valid: 1...10_000),
///     .group("limits", \.limits),
/// ]
/// ```
struct SettingKey<Settings>: Sendable {
    /// When a changed value takes effect.
    enum Applies: Sendable {
        /// At the next successful reload.
        case onReload
        /// When the server starts: a reload that changes it says "restart to apply".
        case atStart
    }

    /// The key as written in YAML.
    let name: String
    /// Sets the property from the key's value in `container`, when the key is given (else the
    /// default stays).
    ///
    /// - Throws: `DecodingError`, located at the key, for a value of the wrong type or one its
    ///   check refuses.
    let decode: @Sendable (inout Settings, KeyedDecodingContainer<AnyCodingKey>) throws -> Void
    /// The start-only keys under this one whose values differ between the two settings: the key
    /// itself, or for a group, its own start-only keys as `name.key`.
    let startOnlyChanges: @Sendable (_ current: Settings, _ start: Settings) -> [String]
    /// The start-only keys at or under this one, each as its path from here (`["listen"]`,
    /// `["limits", "max_connections"]`): the keys the environment may set (``SettingsEnvironment``).
    let startOnlyPaths: [[String]]
}

extension SettingKey {
    /// A key whose value is decoded as `Value` into `property`.
    ///
    /// - Parameters:
    ///   - applies: when a change takes effect.
    ///   - normalized: the value as kept (lists of hosts are lowercased).
    ///   - problem: what is wrong with a (normalized) value, as the error says it; `nil` when
    ///     nothing is.
    static func value<Value: Decodable & Hashable & Sendable>(
        _ name: String, _ property: any WritableKeyPath<Settings, Value> & Sendable, _ applies: Applies = .onReload,
        normalized: @escaping @Sendable (Value) -> Value = { $0 }, problem: @escaping @Sendable (Value) -> String? = { _ in nil }
    ) -> SettingKey {
        SettingKey(
            name: name,
            decode: { settings, container in
                let key = AnyCodingKey(stringValue: name)
                guard let decoded = try container.decodeIfPresent(Value.self, forKey: key) else { return }
                let value = normalized(decoded)
                if let problem = problem(value) {
                    throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: problem)
                }
                settings[keyPath: property] = value
            },
            startOnlyChanges: { current, start in
                applies == .atStart && current[keyPath: property] != start[keyPath: property] ? [name] : []
            },
            startOnlyPaths: applies == .atStart ? [[name]] : [])
    }

    /// An optional key (no default value) whose value is decoded as `Value` into `property`.
    static func optional<Value: Decodable & Hashable & Sendable>(
        _ name: String, _ property: any WritableKeyPath<Settings, Value?> & Sendable, _ applies: Applies = .onReload,
        problem: @escaping @Sendable (Value) -> String? = { _ in nil }
    ) -> SettingKey {
        SettingKey(
            name: name,
            decode: { settings, container in
                let key = AnyCodingKey(stringValue: name)
                guard let value = try container.decodeIfPresent(Value.self, forKey: key) else { return }
                if let problem = problem(value) {
                    throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: problem)
                }
                settings[keyPath: property] = value
            },
            startOnlyChanges: { current, start in
                applies == .atStart && current[keyPath: property] != start[keyPath: property] ? [name] : []
            },
            startOnlyPaths: applies == .atStart ? [[name]] : [])
    }

    /// A whole-number key that must lie within `range`: `'name' must be <description>`, by
    /// default `between <lower> and <upper>`.
    static func value(
        _ name: String, _ property: any WritableKeyPath<Settings, Int> & Sendable, _ applies: Applies = .onReload,
        valid range: ClosedRange<Int>, _ description: String? = nil
    ) -> SettingKey {
        let description = description ?? "between \(range.lowerBound) and \(range.upperBound)"
        return value(name, property, applies, problem: { range.contains($0) ? nil : "'\(name)' must be \(description)" })
    }

    /// An optional whole-number key that must lie within `range` when given.
    static func optional(
        _ name: String, _ property: any WritableKeyPath<Settings, Int?> & Sendable, _ applies: Applies = .onReload,
        valid range: ClosedRange<Int>
    ) -> SettingKey {
        optional(
            name, property, applies,
            problem: {
                range.contains($0) ? nil : "'\(name)' must be between \(range.lowerBound) and \(range.upperBound)"
            })
    }

    /// A key holding settings of their own keys (`limits`): decoded by `Group`, which checks its
    /// keys, and compared key by key, each of its start-only keys named `name.key`.
    static func group<Group: KeyedSettings>(_ name: String, _ property: any WritableKeyPath<Settings, Group> & Sendable) -> SettingKey {
        SettingKey(
            name: name,
            decode: { settings, container in
                guard let value = try container.decodeIfPresent(Group.self, forKey: AnyCodingKey(stringValue: name)) else { return }
                settings[keyPath: property] = value
            },
            startOnlyChanges: { current, start in
                current[keyPath: property].startOnlyChanges(since: start[keyPath: property]).map { "\(name).\($0)" }
            },
            startOnlyPaths: Group.keys.flatMap(\.startOnlyPaths).map { [name] + $0 })
    }
}

/// Settings decoded from their ``keys``: every key optional (a missing one keeps the default
/// of `init()`), an unknown one refused.
protocol KeyedSettings: Decodable, Sendable {
    /// The settings with every default.
    init()
    /// Every key, in the order errors list them.
    static var keys: [SettingKey<Self>] { get }
}

extension KeyedSettings {
    /// Decodes the keys of ``keys`` that `decoder`'s object gives, over the defaults.
    ///
    /// - Throws: `DecodingError` for an unknown key (naming the allowed ones), or for a value
    ///   its key refuses.
    init(decodingKeysOf decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: Self.keys.map(\.name))
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        self.init()
        for key in Self.keys { try key.decode(&self, container) }
    }

    /// The start-only keys whose value in `self` differs from the one the server started with,
    /// in the order of ``keys``.
    func startOnlyChanges(since start: Self) -> [String] {
        Self.keys.flatMap { $0.startOnlyChanges(self, start) }
    }
}
