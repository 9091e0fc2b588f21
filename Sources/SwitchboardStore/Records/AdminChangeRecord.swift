import Foundation
import SwitchboardCore

/// One acknowledged change as the store appends it: the version it created, its history
/// entry (which holds the change itself) and how many history entries were kept after it.
/// Applied to the state of the version before, it gives exactly the state the change left.
package struct AdminChangeRecord: Sendable, Hashable {
    /// The version the change created.
    package var version: Int
    /// How many history entries the state keeps after the change (older ones are dropped).
    package var historyCount: Int
    /// The change and who made it.
    package var entry: AdminHistoryEntry

    package init(version: Int, historyCount: Int, entry: AdminHistoryEntry) {
        self.version = version
        self.historyCount = historyCount
        self.entry = entry
    }

    /// The record that turns the state at `state.version - 1` into `state`: its last history
    /// entry, when it is the entry of `state.version`.
    package init?(last state: AdminState) {
        guard let entry = state.history.last, entry.version == state.version else { return nil }
        self.init(version: state.version, historyCount: state.history.count, entry: entry)
    }

    /// The payload: one line of JSON.
    package var payload: String {
        JSONValue.object([
            ("version", .number(Double(version))), ("history", .number(Double(historyCount))), ("entry", entry.json),
        ]).jsonText
    }

    /// Decodes a payload.
    package init(payload: UnsafeRawBufferPointer) throws {
        let stored = try StoredJSON.decode(Stored.self, from: payload) { !$0.entry.routesChange.isEmpty }
        self.init(version: stored.version, historyCount: stored.history, entry: stored.entry)
    }

    private struct Stored: Decodable {
        var version: Int
        var history: Int
        var entry: AdminHistoryEntry
    }
}

extension AdminState {
    /// This state with `record` applied, or `nil` when `record` is not the change that follows
    /// it (another version, or a change made on other rules or routes).
    package func applying(_ record: AdminChangeRecord) -> AdminState? {
        guard record.version == version + 1, record.entry.version == record.version, record.historyCount >= 1,
            let rules = record.entry.rulesChange.applied(to: rules), rules.count == record.entry.ruleCount,
            let routes = record.entry.routesChange.applied(to: routes), routes.count == record.entry.routeCount
        else { return nil }
        var history = history
        history.append(record.entry)
        if history.count > record.historyCount { history.removeFirst(history.count - record.historyCount) }
        return AdminState(version: record.version, rules: rules, routes: routes, history: history)
    }
}
