/// Merges params with DESIGN §3 precedence: route defaults < query parameters < captures.
/// A key keeps the position where it first appeared; later layers replace its value.
/// Repeated query keys become arrays, in order.
enum ParamsMerger {
    static func merge(
        defaults: [(name: String, value: String)], query: [QueryItem], captures: [(name: String, value: String)]
    ) -> [(name: String, value: JSONValue)] {
        var merged: [(name: String, value: JSONValue)] = []
        merged.reserveCapacity(defaults.count + query.count + captures.count)
        var positions: [String: Int] = [:]

        func set(_ name: String, _ value: JSONValue) {
            if let index = positions[name] {
                merged[index].value = value
            } else {
                positions[name] = merged.count
                merged.append((name, value))
            }
        }

        for item in defaults { set(item.name, .string(item.value)) }
        var queryValues: [String: [String]] = [:]
        var queryOrder: [String] = []
        for item in query {
            if queryValues[item.name] == nil { queryOrder.append(item.name) }
            queryValues[item.name, default: []].append(item.value)
        }
        for name in queryOrder {
            let values = queryValues[name] ?? []
            set(name, values.count == 1 ? .string(values[0]) : .array(values.map(JSONValue.string)))
        }
        for capture in captures { set(capture.name, .string(capture.value)) }
        return merged
    }
}
