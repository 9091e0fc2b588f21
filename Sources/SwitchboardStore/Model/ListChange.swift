/// How one list became another, as splices applied in order (``ListSplice``). One splice for
/// an ordinary change; a rollback undoes the changes after the version it restores, one
/// splice each, which stays in proportion to what it undid even when the list is long and the
/// changes are far apart.
package struct ListChange<Item: Hashable & Sendable>: Hashable, Sendable {
    /// The splices, in the order they apply.
    package var splices: [ListSplice<Item>]

    package init(_ splices: [ListSplice<Item>] = []) {
        self.splices = splices.filter { !$0.isEmpty }
    }

    /// The one splice that turns `before` into `after` (none when they are equal).
    package init(from before: [Item], to after: [Item]) {
        self.init([ListSplice(from: before, to: after)])
    }

    /// Whether the change changes nothing.
    package var isEmpty: Bool { splices.isEmpty }

    /// How many items it carries (taken out and put in).
    package var size: Int { splices.reduce(0) { $0 + $1.removed.count + $1.inserted.count } }

    /// The change that undoes this one.
    package var inverse: ListChange {
        ListChange(splices.reversed().map { ListSplice(offset: $0.offset, removed: $0.inserted, inserted: $0.removed) })
    }

    /// `before` with the change made, or `nil` when `before` is not the list it was made on.
    package func applied(to before: [Item]) -> [Item]? {
        var list = before
        for splice in splices {
            guard let next = splice.applied(to: list) else { return nil }
            list = next
        }
        return list
    }

    /// `after` with the change undone, or `nil` when `after` is not the list it produced.
    package func reverted(from after: [Item]) -> [Item]? {
        inverse.applied(to: after)
    }
}

extension ListChange: Codable where Item: Codable {
    package init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode([ListSplice<Item>].self))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(splices)
    }
}
