import SwitchboardCore

/// The ids of the rules and routes a change adds, changes and removes: the `change` member of
/// a preview. Rules come first in each list; rules and routes may share an id.
package struct ChangeSummary: Sendable, Equatable {
    package let added: [String]
    package let changed: [String]
    package let removed: [String]

    /// What a dry run of an admin change says (a moved rule counts as changed).
    init(_ preview: AdminChangePreview) {
        added = preview.added
        changed = preview.changed
        removed = preview.removed
    }

    /// The difference between two resolvers' rules and routes, by id and content (for a
    /// reload, and between two config directories). A rule that only moved is not seen.
    package init(from before: Resolver, to after: Resolver) {
        let rules = AdminChangePreview.compare(before.rewriter.rules, after.rewriter.rules, id: \.id)
        let routes = AdminChangePreview.compare(Array(before.router.routes), Array(after.router.routes), id: \.id)
        added = rules.added + routes.added
        changed = rules.changed + routes.changed
        removed = rules.removed + routes.removed
    }

    /// `{"added": [...], "changed": [...], "removed": [...]}`.
    package var json: JSONValue {
        .object([
            ("added", .array(added.map(JSONValue.string))), ("changed", .array(changed.map(JSONValue.string))),
            ("removed", .array(removed.map(JSONValue.string))),
        ])
    }

    /// Whether nothing is added, changed or removed.
    package var isEmpty: Bool { added.isEmpty && changed.isEmpty && removed.isEmpty }
}
