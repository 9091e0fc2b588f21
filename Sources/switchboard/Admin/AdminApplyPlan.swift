import SwitchboardCore
import SwitchboardServer
import SwitchboardStore

/// What `admin apply` changes, by id: rules and routes added, changed and removed, and whether
/// the rules' order changes (it decides which rule fires first).
struct AdminApplyPlan {
    var rules: (added: [String], changed: [String], removed: [String])
    var routes: (added: [String], changed: [String], removed: [String])
    var rulesReordered: Bool

    init(from current: ServerAdminState, rules: [RewriteRule], routes: [AdminRoute]) {
        self.rules = AdminChangePreview.compare(current.rules, rules, id: \.id)
        self.routes = AdminChangePreview.compare(current.routes, routes, id: \.definition.id)
        let kept = Set(current.rules.map(\.id)).intersection(rules.map(\.id))
        rulesReordered = current.rules.map(\.id).filter(kept.contains) != rules.map(\.id).filter(kept.contains)
    }

    var isEmpty: Bool {
        rules.added.isEmpty && rules.changed.isEmpty && rules.removed.isEmpty && routes.added.isEmpty
            && routes.changed.isEmpty && routes.removed.isEmpty && !rulesReordered
    }

    /// One line per change: `+ rule id`, `~ route id`, `- rule id`, and `rules reordered`.
    var text: String {
        var lines: [String] = []
        for (kind, list) in [("rule", rules), ("route", routes)] {
            lines += list.added.map { "+ \(kind) \($0)" }
            lines += list.changed.map { "~ \(kind) \($0)" }
            lines += list.removed.map { "- \(kind) \($0)" }
        }
        if rulesReordered { lines.append("~ the order of the rules") }
        return lines.map { $0 + "\n" }.joined()
    }
}
