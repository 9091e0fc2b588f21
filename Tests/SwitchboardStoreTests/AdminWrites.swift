import SwitchboardCore

@testable import SwitchboardStore

/// Admin writes as the server makes them (``AdminHistoryEntry/init(from:to:time:token:action:rollbackTo:)``,
/// the history bounded), for store tests that do not run a server.
enum AdminWrites {
    static func rule(_ id: String, _ target: String = "shopapp://me") -> RewriteRule {
        RewriteRule(id: id, match: "^\(id)://", target: target)
    }

    static func route(_ id: String) -> AdminRoute {
        AdminRoute(
            module: "m",
            definition: RouteDefinition(
                id: id, patterns: ["/\(id)"], target: .object([("z", .string(id)), ("a", .number(1)), ("m", .bool(true))])))
    }

    /// `state` with its rules and routes changed by `edit`, as the next version.
    static func next(
        _ state: AdminState, action: String = "rules.replace", rollbackTo: Int? = nil, keep: Int = 100,
        _ edit: (inout [RewriteRule], inout [AdminRoute]) -> Void
    ) -> AdminState {
        var after = state
        edit(&after.rules, &after.routes)
        after.version += 1
        after.history.append(
            AdminHistoryEntry(
                from: state, to: after, time: "2026-11-25T00:00:00.000Z", token: "t", action: action, rollbackTo: rollbackTo))
        if after.history.count > keep { after.history.removeFirst(after.history.count - keep) }
        return after
    }
}
