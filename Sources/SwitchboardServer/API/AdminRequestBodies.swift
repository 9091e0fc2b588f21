import SwitchboardCore
import SwitchboardStore

/// Something the admin API takes one of, or a batch of under its plural key.
protocol AdminBatchItem: Decodable {
    /// The key of a batch: `rules` or `routes`.
    static var batchKey: String { get }
}

/// A rule in an admin write body. It may carry the `source` that `GET /admin/rules` lists, so
/// that listed admin rules can be sent back as they are; ``AdminEndpoints`` refuses
/// `"source": "config"` (such a rule lives in rewrites.yaml) and ignores `"admin"`.
package struct AdminRuleItem: AdminBatchItem {
    static var batchKey: String { "rules" }

    /// The rule, without its `source`.
    package let rule: RewriteRule
    /// The `source` member as sent, if any.
    package let source: String?

    package init(from decoder: any Decoder) throws {
        rule = try RewriteRule(from: decoder, extraAllowedKeys: ["source"])
        source = try decoder.container(keyedBy: AnyCodingKey.self)
            .decodeIfPresent(String.self, forKey: AnyCodingKey(stringValue: "source"))
    }
}

extension AdminRoute: AdminBatchItem {
    static var batchKey: String { "routes" }
}

/// The body of `POST`/`PUT` on `/admin/rules` and `/admin/routes`: one item, or
/// `{"<batchKey>": [...]}` and nothing else.
struct ItemsBody<Item: AdminBatchItem>: Decodable {
    /// The items, in order.
    let items: [Item]
    /// Whether the body was the `{"<batchKey>": [...]}` form.
    let isBatch: Bool

    /// How the body should look, for error messages.
    static var shape: String { "one item or {\"\(Item.batchKey)\": [...]}" }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        let batchKey = AnyCodingKey(stringValue: Item.batchKey)
        guard container.contains(batchKey) else {
            items = [try Item(from: decoder)]
            isBatch = false
            return
        }
        let extra = container.allKeys.map(\.stringValue).filter { $0 != Item.batchKey }.sorted()
        guard extra.isEmpty else {
            throw DecodingError.dataCorruptedError(
                forKey: batchKey, in: container,
                debugDescription: "unknown key(s) next to '\(Item.batchKey)': \(extra.joined(separator: ", "))")
        }
        items = try container.decode([Item].self, forKey: batchKey)
        isBatch = true
    }
}

/// The body of `PUT /admin/state`: exactly `{"rules": [...], "routes": [...]}`, every admin
/// rule and every admin route the state is to have.
struct AdminStateBody: Decodable {
    let rules: [AdminRuleItem]
    let routes: [AdminRoute]

    enum CodingKeys: String, CodingKey, CaseIterable { case rules, routes }

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rules = try container.decode([AdminRuleItem].self, forKey: .rules)
        routes = try container.decode([AdminRoute].self, forKey: .routes)
    }
}

/// The body of `POST /admin/rollback`: exactly `{"version": N}`.
struct RollbackBody: Decodable {
    let version: Int

    enum CodingKeys: String, CodingKey, CaseIterable { case version }

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        version = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .version)
    }
}

/// The body of `PATCH /admin/rules/{id}`: exactly one of `{"before": "<id>"}` and
/// `{"after": "<id>"}`.
struct MoveRuleBody: Decodable {
    /// Where the rule goes.
    let position: AdminChange.RulePosition

    enum CodingKeys: String, CodingKey, CaseIterable { case before, after }

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let before = try container.decodeIfPresent(String.self, forKey: .before)
        let after = try container.decodeIfPresent(String.self, forKey: .after)
        switch (before, after) {
        case (let before?, nil): position = .before(before)
        case (nil, let after?): position = .after(after)
        default:
            // Located at a key: an error at the top of the body reads as JSON that did not parse.
            throw DecodingError.dataCorruptedError(
                forKey: before == nil ? .after : .before, in: container,
                debugDescription: "give exactly one of 'before' and 'after' (the id of another admin rule)")
        }
    }
}
