/// One rewrite rule (design.md §4): where `match` is found in a URL, the URL becomes `target`.
///
/// In config files (`rewrites.yaml`) and the admin API:
/// ```yaml
/// - id: search-web-to-app
///   match: '(?:https://)?www\.shop\.com/search/(.*)'
///   target: 'app://search?q=$$1'
///   last: true          # optional, default true
///   when: { platform: [ios], appVersion: ">=5.2 <6" }   # optional, see RuleCondition
///   examples: [https://www.shop.com/search/shoes]        # optional, see ConfigExample
/// ```
/// Decoding refuses unknown keys. Rules are validated when a ``RewriteEngine`` is built.
public struct RewriteRule: Codable, Sendable, Hashable {
    /// Unique, non-empty identifier (used in metrics, `ruleIds` and admin calls).
    public var id: String
    /// A PCRE2 regex searched (not anchored) in the whole URL.
    public var match: String
    /// The template of the rewritten URL; see ``RewriteEngine`` for the variables.
    public var target: String
    /// Whether rewriting stops after this rule fires (`true`, the default) or the rewritten
    /// URL goes on to the next rules.
    public var last: Bool
    /// Conditions on the request (platform, app version, time window, rollout percentage);
    /// `nil`: the rule always runs.
    public var when: RuleCondition?
    /// URLs this rule must fire on, with their expected outcome; checked by `switchboard check`.
    public var examples: [ConfigExample]?

    /// Creates a rule.
    public init(
        id: String, match: String, target: String, last: Bool = true, when: RuleCondition? = nil,
        examples: [ConfigExample]? = nil
    ) {
        self.id = id
        self.match = match
        self.target = target
        self.last = last
        self.when = when
        self.examples = examples
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, match, target, last, when, examples
    }

    /// Decodes a rule; `last` defaults to `true`.
    /// - Throws: `DecodingError` for a missing or mistyped key, or an unknown key (named).
    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder, extraAllowedKeys: [])
    }

    /// Decodes a rule that may carry `extraAllowedKeys` besides its own, which are left for
    /// the caller to read (the admin API's `source`, so that a listed rule can be sent back).
    /// - Throws: `DecodingError` as ``init(from:)``.
    package init(from decoder: any Decoder, extraAllowedKeys: [String]) throws {
        try decoder.rejectUnknownKeys(allowed: CodingKeys.allCases.map(\.stringValue) + extraAllowedKeys)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.id = try container.decode(String.self, forKey: .id)
        self.match = try container.decode(String.self, forKey: .match)
        self.target = try container.decode(String.self, forKey: .target)
        self.last = try container.decodeIfPresent(Bool.self, forKey: .last) ?? true
        self.when = try container.decodeIfPresent(RuleCondition.self, forKey: .when)
        self.examples = try container.decodeIfPresent([ConfigExample].self, forKey: .examples)
    }
}
