/// Merges params with design.md §3 precedence: route defaults < query parameters < captures.
/// A key keeps the position where it first appeared; later layers replace its value.
/// Repeated query keys become arrays, in order.
enum ParamsMerger {
    /// Up to this many inputs, names are found by a linear scan (no hashing, no dictionary
    /// allocations: the common case of a few params); above it, through a dictionary so that
    /// a URL with thousands of query keys stays linear.
    static let linearScanLimit = 16

    static func merge(
        defaults: [(name: String, value: String)], query: [QueryItem], captures: [(name: String, value: String)]
    ) -> [(name: String, value: JSONValue)] {
        var merged = Merged(capacity: defaults.count + query.count + captures.count)
        for item in defaults { merged.set(item.name, .string(item.value)) }
        for (first, values) in groupedQuery(query, indexed: merged.isIndexed) {
            merged.set(first, values.count == 1 ? .string(values[0]) : .array(values.map(JSONValue.string)))
        }
        for capture in captures { merged.set(capture.name, .string(capture.value)) }
        return merged.members
    }

    /// The query's values by key, keys in order of first appearance.
    private static func groupedQuery(_ query: [QueryItem], indexed: Bool) -> [(name: String, values: [String])] {
        var groups: [(name: String, values: [String])] = []
        guard indexed else {
            for item in query {
                if let index = groups.firstIndex(where: { $0.name == item.name }) {
                    groups[index].values.append(item.value)
                } else {
                    groups.append((item.name, [item.value]))
                }
            }
            return groups
        }
        var positions: [String: Int] = [:]
        for item in query {
            if let index = positions[item.name] {
                groups[index].values.append(item.value)
            } else {
                positions[item.name] = groups.count
                groups.append((item.name, [item.value]))
            }
        }
        return groups
    }

    /// The merged list, with a name index only when it is large.
    private struct Merged {
        var members: [(name: String, value: JSONValue)] = []
        let isIndexed: Bool
        private var positions: [String: Int] = [:]

        init(capacity: Int) {
            members.reserveCapacity(capacity)
            isIndexed = capacity > ParamsMerger.linearScanLimit
        }

        mutating func set(_ name: String, _ value: JSONValue) {
            let existing = isIndexed ? positions[name] : members.firstIndex { $0.name == name }
            if let existing {
                members[existing].value = value
            } else {
                if isIndexed { positions[name] = members.count }
                members.append((name, value))
            }
        }
    }
}
