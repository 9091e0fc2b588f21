import SwitchboardCore

extension ServerSettings {
    /// `analytics`: resolutions counted over time by route, rule, platform, app version and
    /// status, and the most asked unmatched links, kept in the store (docs/analytics.md).
    /// Applied at start only.
    package struct AnalyticsSettings: Sendable, Hashable, KeyedSettings {
        /// The size of a time bucket.
        package enum Bucket: String, Sendable, Hashable, Codable, CaseIterable {
            case hour
            case day

            /// The bucket's length in seconds.
            package var seconds: Int { self == .hour ? 3_600 : 86_400 }

            package init(from decoder: any Decoder) throws {
                let text = try decoder.singleValueContainer().decode(String.self)
                guard let bucket = Bucket(rawValue: text) else {
                    throw DecodingError.dataCorrupted(
                        .init(codingPath: decoder.codingPath, debugDescription: "'bucket' must be hour or day, not '\(text)'"))
                }
                self = bucket
            }
        }

        /// Whether anything is counted at all.
        package var enabled: Bool = true
        package var bucket: Bucket = .hour
        /// How often the counts are added to the store; a `kill -9` loses at most this much.
        package var flushSeconds: Int = 10
        /// Buckets older than this are dropped from the store.
        package var retentionDays: Int = 90
        /// Unmatched links kept per bucket, the most asked ones.
        package var orphansPerBucket: Int = 100

        package init() {}

        /// Every key; all apply at start only.
        static let keys: [SettingKey<AnalyticsSettings>] = [
            .value("enabled", \.enabled, .atStart),
            .value("bucket", \.bucket, .atStart),
            .value("flush_seconds", \.flushSeconds, .atStart, valid: 1...3_600),
            .value("retention_days", \.retentionDays, .atStart, valid: 1...3_650),
            .value("orphans_per_bucket", \.orphansPerBucket, .atStart, valid: 0...10_000),
        ]

        package init(from decoder: any Decoder) throws {
            try self.init(decodingKeysOf: decoder)
        }
    }
}
