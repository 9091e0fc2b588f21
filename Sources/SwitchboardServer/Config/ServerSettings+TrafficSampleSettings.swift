import SwitchboardCore

extension ServerSettings {
    /// `traffic_sample`: the recent `GET /resolve` requests the server keeps so that
    /// `POST /admin/preview` can replay a change against real traffic (design.md §9). Applied
    /// at start only.
    package struct TrafficSampleSettings: Sendable, Hashable, Codable {
        /// How many sampled requests are kept, the most recent ones; 0 turns the sample off.
        package var urls: Int = 10_000
        /// The most memory the kept requests may take, in bytes (their text plus a fixed cost
        /// per entry, ``TrafficSampleRing/entryOverheadBytes``); the oldest go first.
        package var maxBytes: Int = 4 * 1024 * 1024
        /// One `GET /resolve` in `every` (counted per worker thread) is sampled.
        package var every: Int = 16
        /// Query keys whose values are kept as sent (compared without case), for rules that
        /// match query values; a key that names a secret (``SampleRedaction/isSecret(_:)``)
        /// cannot be listed.
        package var keepQueryValues: [String] = []

        package init() {}

        /// Whether the server keeps a sample at all.
        package var isEnabled: Bool { urls > 0 }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case urls, every
            case maxBytes = "max_bytes"
            case keepQueryValues = "keep_query_values"
        }

        package init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(CodingKeys.self)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let defaults = TrafficSampleSettings()
            func bounded(_ key: CodingKeys, _ fallback: Int, _ range: ClosedRange<Int>, _ meaning: String) throws -> Int {
                let value = try container.decodeIfPresent(Int.self, forKey: key) ?? fallback
                guard range.contains(value) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: container,
                        debugDescription: "'traffic_sample.\(key.rawValue)' must be between \(range.lowerBound) and "
                            + "\(range.upperBound) (\(meaning))")
                }
                return value
            }
            urls = try bounded(.urls, defaults.urls, 0...1_000_000, "0 turns the sample off")
            maxBytes = try bounded(.maxBytes, defaults.maxBytes, 1024...(1 << 30), "bytes")
            every = try bounded(.every, defaults.every, 1...1_000_000, "1 samples every request")
            keepQueryValues = try container.decodeIfPresent([String].self, forKey: .keepQueryValues) ?? []
            for key in keepQueryValues where SampleRedaction.isSecret(key) {
                throw DecodingError.dataCorruptedError(
                    forKey: .keepQueryValues, in: container,
                    debugDescription: "traffic_sample.keep_query_values: '\(key)' names a secret (token, key, signature, "
                        + "password, session, auth, code), whose value is never kept; remove it")
            }
        }
    }
}
