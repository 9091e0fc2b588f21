import SwitchboardCore
import Yams

/// Settings from the environment, for twelve-factor deployments: every start-only key of
/// `switchboard.yaml` (``ServerSettings/keys``, and the start-only keys of its groups) can be
/// given as `SWITCHBOARD_` and its path in capitals, dots as `_`: `listen` is
/// `SWITCHBOARD_LISTEN`, `limits.max_connections` is `SWITCHBOARD_LIMITS_MAX_CONNECTIONS`.
///
/// Precedence, one rule for every setting: a command-line flag, then the environment, then
/// `switchboard.yaml`, then the default. A variable's value is one plain YAML scalar, taken as
/// written (`8080`, `true`, `./data`, a URL with a `#` in it), or a flow collection when it
/// starts with `[` or `{` (`[a, b]`, `{urls: 0}`); it is checked as the key in the file is. An
/// empty variable is ignored. The overrides are applied wherever `switchboard.yaml` is read for
/// the server (at start and at every reload), so a reload never sees them as changes.
package struct SettingsEnvironment: Sendable {
    /// The prefix of every variable.
    package static let prefix = "SWITCHBOARD_"

    /// One setting the environment may give: the key's path and its variable.
    package struct Entry: Sendable, Hashable {
        /// `["limits", "max_connections"]`.
        package let path: [String]
        /// `SWITCHBOARD_LIMITS_MAX_CONNECTIONS`.
        package let variable: String
    }

    /// Every setting the environment may give, in the order of ``ServerSettings/keys``.
    package static let entries: [Entry] = ServerSettings.keys.flatMap(\.startOnlyPaths).map { path in
        Entry(path: path, variable: prefix + path.joined(separator: "_").uppercased())
    }

    /// The process's variables (or a test's).
    let variables: [String: String]

    package init(_ variables: [String: String]) {
        self.variables = variables
    }

    /// `root`, the parsed `switchboard.yaml` (`nil` when empty), with every setting the
    /// environment gives put in; a variable whose value is not valid YAML, or that its key
    /// refuses, is an issue naming the variable, and is left out.
    func applied(to root: Node?, issues: inout [ConfigIssue]) -> Node? {
        var root = root
        for entry in Self.entries {
            guard let text = variables[entry.variable], !text.isEmpty else { continue }
            let value: Node
            do {
                // A scalar is not parsed as YAML, so that nothing in it (`#`, quotes) is lost.
                let isCollection = text.hasPrefix("[") || text.hasPrefix("{")
                value = isCollection ? try Yams.compose(yaml: text) ?? Node(text) : Node(text)
                // Checked alone first, so that a refusal names the variable rather than the file.
                _ = try YAMLDecoder().decode(ServerSettings.self, from: Self.setting(value, at: entry.path, in: nil))
            } catch {
                issues.append(
                    ConfigIssue(
                        file: "environment", item: entry.variable,
                        message: DecodingErrorDescription.describeConfigError(error)))
                continue
            }
            root = Self.setting(value, at: entry.path, in: root)
        }
        return root
    }

    /// `node` with `value` at `path`, the mappings on the way made when missing.
    private static func setting(_ value: Node, at path: [String], in node: Node?) -> Node {
        guard let key = path.first else { return value }
        var mapping = node?.mapping ?? Node.Mapping([])
        mapping[Node(key)] = setting(value, at: Array(path.dropFirst()), in: mapping[Node(key)])
        return Node.mapping(mapping)
    }
}
