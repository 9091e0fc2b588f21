/// A coding key for any string or integer, used to list the keys an object really has.
package struct AnyCodingKey: CodingKey, Hashable, Sendable {
    package let stringValue: String
    package let intValue: Int?

    package init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    package init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}

extension Decoder {
    /// Throws when the object being decoded has a key that `keys` does not list, so that a
    /// typo in a config file (`lsat: false`) is an error instead of being silently ignored.
    ///
    /// Call it first in `init(from:)`, with the type's `CodingKeys`:
    /// ```swift
    /// enum CodingKeys: String, CodingKey, CaseIterable { case id, match }
    /// init(from decoder: any Decoder) throws {
    ///     try decoder.rejectUnknownKeys(CodingKeys.self)
    ///     let container = try decoder.container(keyedBy: CodingKeys.self)
    ///     …
    /// }
    /// ```
    /// - Throws: `DecodingError.dataCorrupted` whose `codingPath` ends with the first unknown
    ///   key (in sorted order) and whose description names every unknown key and the allowed
    ///   ones, e.g. `unknown key 'lsat' (allowed keys: id, match, target, last)`. Also the
    ///   usual `DecodingError.typeMismatch` when the value is not an object.
    package func rejectUnknownKeys<Keys: CodingKey & CaseIterable>(_ keys: Keys.Type) throws {
        try rejectUnknownKeys(allowed: Keys.allCases.map(\.stringValue))
    }

    /// The same check against a list of key names (for objects that share keys with another type).
    package func rejectUnknownKeys(allowed: [String]) throws {
        let container = try container(keyedBy: AnyCodingKey.self)
        let unknown = container.allKeys.map(\.stringValue).filter { !allowed.contains($0) }.sorted()
        guard let first = unknown.first else { return }
        let names = unknown.map { "'\($0)'" }.joined(separator: ", ")
        let noun = unknown.count == 1 ? "key" : "keys"
        throw DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: codingPath + [AnyCodingKey(stringValue: first)],
                debugDescription: "unknown \(noun) \(names) (allowed keys: \(allowed.joined(separator: ", ")))"))
    }
}
