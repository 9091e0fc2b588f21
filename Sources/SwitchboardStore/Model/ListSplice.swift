import SwitchboardCore

/// How one list became another, as one splice: `removed` (the items at `offset` in the list
/// before) was replaced by `inserted`; everything before and after it is unchanged.
///
/// It costs what the change costs: appending a rule to 10,000 stores the one rule, deleting one
/// stores the one deleted. It can be applied forwards (to the list before, giving the list
/// after) and backwards (to the list after, giving the list before), which is how a rollback
/// rebuilds an older version from the current one. ``ListChange`` chains them.
package struct ListSplice<Item: Hashable & Sendable>: Hashable, Sendable {
    /// Where the changed part starts (the length of the unchanged prefix).
    package var offset: Int
    /// The items the change took out, in order.
    package var removed: [Item]
    /// The items it put in their place, in order.
    package var inserted: [Item]

    package init(offset: Int = 0, removed: [Item] = [], inserted: [Item] = []) {
        self.offset = offset
        self.removed = removed
        self.inserted = inserted
    }

    /// The smallest splice that turns `before` into `after`: everything but the longest common
    /// prefix and suffix.
    package init(from before: [Item], to after: [Item]) {
        let (prefix, suffix) = before.commonEnds(with: after)
        self.init(
            offset: prefix, removed: Array(before[prefix..<(before.count - suffix)]),
            inserted: Array(after[prefix..<(after.count - suffix)]))
    }

    /// Whether the splice changes nothing.
    package var isEmpty: Bool { removed.isEmpty && inserted.isEmpty }

    /// `before` with the change made, or `nil` when `before` is not the list it was made on.
    package func applied(to before: [Item]) -> [Item]? {
        Self.replace(removed, with: inserted, at: offset, in: before)
    }

    /// `after` with the change undone, or `nil` when `after` is not the list it produced.
    package func reverted(from after: [Item]) -> [Item]? {
        Self.replace(inserted, with: removed, at: offset, in: after)
    }

    private static func replace(_ old: [Item], with new: [Item], at offset: Int, in list: [Item]) -> [Item]? {
        guard offset >= 0, offset <= list.count, old.count <= list.count - offset,
            list[offset..<(offset + old.count)].elementsEqual(old)
        else { return nil }
        var result = list
        result.replaceSubrange(offset..<(offset + old.count), with: new)
        return result
    }
}

extension ListSplice: Codable where Item: Codable {
    enum CodingKeys: String, CodingKey { case offset, removed, inserted }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(offset, forKey: .offset)
        if !removed.isEmpty { try container.encode(removed, forKey: .removed) }
        if !inserted.isEmpty { try container.encode(inserted, forKey: .inserted) }
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        offset = try container.decode(Int.self, forKey: .offset)
        removed = try container.decodeIfPresent([Item].self, forKey: .removed) ?? []
        inserted = try container.decodeIfPresent([Item].self, forKey: .inserted) ?? []
    }
}
