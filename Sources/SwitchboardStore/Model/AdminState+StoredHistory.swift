import SwitchboardCore

/// A history entry as a state document holds it: either a change (``AdminHistoryEntry``'s own
/// keys), or, in documents written before the change log, the whole admin state the change
/// left (`rules` and `routes`).
struct StoredHistoryEntry: Decodable {
    var version: Int
    var time: String
    var token: String
    var action: String
    var ids: [String]
    var rollbackTo: Int?
    var change: (rulesChange: ListChange<RewriteRule>, routesChange: ListChange<AdminRoute>, ruleCount: Int, routeCount: Int)?
    var state: (rules: [RewriteRule], routes: [AdminRoute])?

    enum CodingKeys: String, CodingKey {
        case version, time, token, action, ids, rollbackTo, ruleCount, routeCount, rulesChange, routesChange, rules, routes
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        time = try container.decode(String.self, forKey: .time)
        token = try container.decode(String.self, forKey: .token)
        action = try container.decode(String.self, forKey: .action)
        ids = try container.decode([String].self, forKey: .ids)
        rollbackTo = try container.decodeIfPresent(Int.self, forKey: .rollbackTo)
        if container.contains(.rulesChange) {
            change = (
                try container.decode(ListChange<RewriteRule>.self, forKey: .rulesChange),
                try container.decode(ListChange<AdminRoute>.self, forKey: .routesChange),
                try container.decode(Int.self, forKey: .ruleCount), try container.decode(Int.self, forKey: .routeCount)
            )
        } else {
            state = (try container.decode([RewriteRule].self, forKey: .rules), try container.decode([AdminRoute].self, forKey: .routes))
        }
    }
}

extension AdminState {
    /// The state with `stored` as its history. An entry that holds a whole state becomes the
    /// change from the entry before it; the oldest such entry's change is not known (what came
    /// before it was dropped) and is left empty: a rollback only ever undoes the changes after
    /// the version it restores, so it is never undone.
    init(storedHistory stored: [StoredHistoryEntry], version: Int, rules: [RewriteRule], routes: [AdminRoute]) {
        var history: [AdminHistoryEntry] = []
        history.reserveCapacity(stored.count)
        var previous: (version: Int, rules: [RewriteRule], routes: [AdminRoute])?
        for entry in stored {
            let rulesChange: ListChange<RewriteRule>
            let routesChange: ListChange<AdminRoute>
            let counts: (rules: Int, routes: Int)
            if let change = entry.change {
                (rulesChange, routesChange, counts) = (change.rulesChange, change.routesChange, (change.ruleCount, change.routeCount))
                previous = nil
            } else if let state = entry.state {
                if let previous, previous.version == entry.version - 1 {
                    rulesChange = ListChange(from: previous.rules, to: state.rules)
                    routesChange = ListChange(from: previous.routes, to: state.routes)
                } else {
                    rulesChange = ListChange()
                    routesChange = ListChange()
                }
                counts = (state.rules.count, state.routes.count)
                previous = (entry.version, state.rules, state.routes)
            } else {
                continue
            }
            history.append(
                AdminHistoryEntry(
                    version: entry.version, time: entry.time, token: entry.token, action: entry.action, ids: entry.ids,
                    rollbackTo: entry.rollbackTo, ruleCount: counts.rules, routeCount: counts.routes, rulesChange: rulesChange,
                    routesChange: routesChange))
        }
        self.init(version: version, rules: rules, routes: routes, history: history)
    }
}
