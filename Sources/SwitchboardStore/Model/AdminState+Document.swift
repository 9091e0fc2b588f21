import Foundation
import SwitchboardCore
import Yams

/// The stored form of the admin state: the content of `state.json` and of the PostgreSQL row.
extension AdminState {
    /// Decodes a stored document (the content of `state.json`, or the PostgreSQL row).
    ///
    /// It must be JSON, but it is decoded with Yams (JSON is YAML) because JSONDecoder forgets
    /// the key order of objects, and a route's target is returned in the order it was given.
    package init(document: String) throws {
        _ = try JSONSerialization.jsonObject(with: Data(document.utf8))
        self = try YAMLDecoder().decode(AdminState.self, from: document)
    }

    /// The content of `state.json`: JSON with one rule, route or history entry per line, keys
    /// in the order `load` reads them and route targets exactly as given.
    package var fileText: String {
        func list(_ items: [JSONValue]) -> String {
            items.isEmpty ? "[]" : "[\n" + items.map { "    " + $0.jsonText }.joined(separator: ",\n") + "\n  ]"
        }
        let history = history.map(\.json)
        return "{\n  \"version\": \(version),\n  \"rules\": \(list(rules.map(\.fileJSON))),\n  \"routes\": \(list(routes.map(\.fileJSON))),"
            + "\n  \"history\": \(list(history))\n}\n"
    }
}

extension AdminHistoryEntry {
    /// The entry as stored (in a state document, a snapshot or a change record): its
    /// description, the counts after the change, and the change itself.
    package var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("version", .number(Double(version))), ("time", .string(time)), ("token", .string(token)),
            ("action", .string(action)), ("ids", .array(ids.map(JSONValue.string))),
        ]
        if let rollbackTo { members.append(("rollbackTo", .number(Double(rollbackTo)))) }
        members.append(("ruleCount", .number(Double(ruleCount))))
        members.append(("routeCount", .number(Double(routeCount))))
        members.append(("rulesChange", rulesChange.json(\.fileJSON)))
        members.append(("routesChange", routesChange.json(\.fileJSON)))
        return .object(members)
    }
}

extension ListChange {
    /// The change as stored: its splices, each item as `item` writes it, empty lists left out.
    func json(_ item: (Item) -> JSONValue) -> JSONValue {
        .array(
            splices.map { splice in
                var members: [(key: String, value: JSONValue)] = [("offset", .number(Double(splice.offset)))]
                if !splice.removed.isEmpty { members.append(("removed", .array(splice.removed.map(item)))) }
                if !splice.inserted.isEmpty { members.append(("inserted", .array(splice.inserted.map(item)))) }
                return .object(members)
            })
    }
}

extension ConfigExample {
    /// The example as JSON, in the shape it is read back from.
    var json: JSONValue {
        guard rewritesTo != nil || routeId != nil || params != nil || matched != nil || openWeb != nil || hasContext else {
            return .string(url)
        }
        var members: [(key: String, value: JSONValue)] = [("url", .string(url))]
        if let rewritesTo { members.append(("rewritesTo", .string(rewritesTo))) }
        if let routeId { members.append(("routeId", .string(routeId))) }
        if let params { members.append(("params", .object(params.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))) }
        if let matched { members.append(("matched", .bool(matched))) }
        if let openWeb { members.append(("openWeb", .bool(openWeb))) }
        if let platform { members.append(("platform", .string(platform))) }
        if let appVersion { members.append(("appVersion", .string(appVersion))) }
        if let device { members.append(("device", .string(device))) }
        if let at { members.append(("at", .string(at))) }
        return .object(members)
    }
}

extension RewriteRule {
    /// The rule as stored in `state.json` (and listed by the admin API, plus its source).
    package var fileJSON: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("id", .string(id)), ("match", .string(match)), ("target", .string(target)), ("last", .bool(last)),
        ]
        if let when { members.append(("when", when.json)) }
        if let examples { members.append(("examples", .array(examples.map(\.json)))) }
        return .object(members)
    }
}

extension AdminRoute {
    /// The route as stored in `state.json` (the admin API lists the same shape, params always present).
    package var fileJSON: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("id", .string(definition.id)), ("module", .string(module))]
        if definition.patterns.count == 1 {
            members.append(("pattern", .string(definition.patterns[0])))
        } else {
            members.append(("patterns", .array(definition.patterns.map(JSONValue.string))))
        }
        members.append(("target", definition.target))
        if !definition.params.isEmpty {
            members.append(("params", .object(definition.params.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
        }
        if let web = definition.web { members.append(("web", .string(web))) }
        if let app = definition.app { members.append(("app", .bool(app))) }
        if let minimum = definition.minAppVersion { members.append(("minAppVersion", .string(minimum))) }
        if let preview = definition.preview { members.append(("preview", preview.json)) }
        if let open = definition.open { members.append(("open", open.json)) }
        if let examples = definition.examples { members.append(("examples", .array(examples.map(\.json)))) }
        return .object(members)
    }
}
