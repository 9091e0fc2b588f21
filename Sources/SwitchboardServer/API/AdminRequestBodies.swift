import SwitchboardCore
import SwitchboardStore

/// Something the admin API takes one of, or a batch of under its plural key.
protocol AdminBatchItem: Decodable {
    /// The key of a batch: `rules` or `routes`.
    static var batchKey: String { get }
}

extension RewriteRule: AdminBatchItem {
    static var batchKey: String { "rules" }
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

/// The body of `POST /admin/rollback`: exactly `{"version": N}`.
struct RollbackBody: Decodable {
    let version: Int

    enum CodingKeys: String, CodingKey, CaseIterable { case version }

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        version = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .version)
    }
}
