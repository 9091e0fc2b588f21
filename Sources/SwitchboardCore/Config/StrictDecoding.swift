extension Decoder {
    /// Throws when the object being decoded has a key outside `allowed`: a misspelt key in a
    /// config file is an error that names it, never silently ignored.
    package func rejectUnknownKeys(allowed: [String]) throws {
        guard let container = try? container(keyedBy: AnyCodingKey.self) else { return }
        for key in container.allKeys where !allowed.contains(key.stringValue) {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription: "unknown key '\(key.stringValue)' (expected one of: \(allowed.joined(separator: ", ")))")
        }
    }
}
