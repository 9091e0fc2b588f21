import SwitchboardCore
import SwitchboardStore

/// What an admin change would do (`?dry_run=1`): the version it was checked against and the
/// ids of the rules and routes it would add, change or remove.
package struct AdminChangePreview: Sendable, Equatable {
    /// The current version; the change would make `version + 1`.
    package let version: Int
    /// Ids that would be new (rules first, each in the new list's order).
    package let added: [String]
    /// Ids that would stay with another content or, for a moved rule, another place.
    package let changed: [String]
    /// Ids that would be gone (rules first, each in the old list's order).
    package let removed: [String]

    /// The preview of going from `before` to `after` by `change`.
    init(from before: AdminState, to after: AdminState, change: AdminChange) {
        version = before.version
        // Rules and routes may share an id: each list is compared on its own.
        let rules = Self.compare(before.rules, after.rules, id: \.id)
        let routes = Self.compare(before.routes, after.routes, id: \.definition.id)
        added = rules.added + routes.added
        removed = rules.removed + routes.removed
        var changed = rules.changed + routes.changed
        if let moved = change.movedRuleID, !changed.contains(moved) { changed.append(moved) }
        self.changed = changed
    }

    /// The ids added, changed and removed between two lists of items with unique ids.
    package static func compare<Item: Equatable>(
        _ old: [Item], _ new: [Item], id: (Item) -> String
    ) -> (added: [String], changed: [String], removed: [String]) {
        let oldByID = Dictionary(old.map { (id($0), $0) }, uniquingKeysWith: { first, _ in first })
        let newIDs = Set(new.map(id))
        var added: [String] = []
        var changed: [String] = []
        for item in new {
            if let previous = oldByID[id(item)] {
                if previous != item { changed.append(id(item)) }
            } else {
                added.append(id(item))
            }
        }
        return (added, changed, old.map(id).filter { !newIDs.contains($0) })
    }
}
