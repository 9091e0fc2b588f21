/// `apps:` in `switchboard.yaml`: the apps that may open this service's domains, published in
/// `/.well-known/apple-app-site-association` and `/.well-known/assetlinks.json`.
///
/// ```yaml
/// apps:
///   ios: [{appID: "ABCDE12345.com.example.shop", store_url: "https://apps.apple.com/app/id123"}]
///   android: [{package: com.example.shop, sha256: ["AA:BB:…:FF"], store_url: "https://play.google.com/store/apps/details?id=com.example.shop"}]
/// ```
///
/// `store_url` (optional) is where `GET /open` sends a phone of that platform that has no
/// page to open; it must pass `redirect_allow` (checked at load).
public struct AppsSettings: Sendable, Hashable, Codable {
    /// An iOS app: `TEAMID.bundle.id`.
    public struct IOSApp: Sendable, Hashable, Codable {
        /// The app's `TEAMID.bundle.id`.
        public var appID: String
        /// The app's App Store page.
        public var storeURL: String?

        /// An iOS app by its `TEAMID.bundle.id`.
        public init(appID: String, storeURL: String? = nil) {
            self.appID = appID
            self.storeURL = storeURL
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case appID
            case storeURL = "store_url"
        }

        public init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(CodingKeys.self)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            appID = try container.decode(String.self, forKey: .appID)
            let parts = appID.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count >= 2, parts.allSatisfy({ !$0.isEmpty }), !appID.contains(where: \.isWhitespace) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .appID, in: container,
                    debugDescription: "'\(appID)' is not an app ID: write TEAMID.bundle.id, e.g. ABCDE12345.com.example.shop")
            }
            storeURL = try container.decodeIfPresent(String.self, forKey: .storeURL)
        }
    }

    /// An Android app: its package name and the SHA-256 fingerprints of its signing certificates.
    public struct AndroidApp: Sendable, Hashable, Codable {
        /// The Android package name (`com.example.shop`).
        public var package: String
        /// Uppercase, colon-separated: 32 bytes as `AA:BB:…`.
        public var sha256: [String]
        /// The app's Play Store page.
        public var storeURL: String?

        /// An Android app by its package name and signing-certificate fingerprints.
        public init(package: String, sha256: [String], storeURL: String? = nil) {
            self.package = package
            self.sha256 = sha256
            self.storeURL = storeURL
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case package, sha256
            case storeURL = "store_url"
        }

        public init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(CodingKeys.self)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            package = try container.decode(String.self, forKey: .package)
            guard !package.isEmpty, !package.contains(where: { $0.isWhitespace || $0 == "/" }) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .package, in: container, debugDescription: "'\(package)' is not an Android package name")
            }
            sha256 = try container.decode([String].self, forKey: .sha256).map { $0.uppercased() }
            guard !sha256.isEmpty else {
                throw DecodingError.dataCorruptedError(
                    forKey: .sha256, in: container, debugDescription: "'\(package)' needs at least one sha256 fingerprint")
            }
            for fingerprint in sha256 where !Self.isFingerprint(fingerprint) {
                throw DecodingError.dataCorruptedError(
                    forKey: .sha256, in: container,
                    debugDescription: "'\(fingerprint)' is not a SHA-256 fingerprint: 32 hex bytes separated by ':' (AA:BB:…)")
            }
            storeURL = try container.decodeIfPresent(String.self, forKey: .storeURL)
        }

        /// `XX:XX:…` with 32 uppercase hexadecimal pairs.
        static func isFingerprint(_ text: String) -> Bool {
            let pairs = text.split(separator: ":", omittingEmptySubsequences: false)
            return pairs.count == 32
                && pairs.allSatisfy { pair in
                    pair.count == 2 && pair.allSatisfy { $0.isHexDigit && !$0.isLowercase }
                }
        }
    }

    /// The iOS apps of the apple-app-site-association file.
    public var ios: [IOSApp] = []
    /// The Android apps of the assetlinks.json file.
    public var android: [AndroidApp] = []

    /// The apps published in `/.well-known/`.
    public init(ios: [IOSApp] = [], android: [AndroidApp] = []) {
        self.ios = ios
        self.android = android
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case ios, android }

    /// Why a `store_url` cannot be used, naming its app, for each one `policy` refuses.
    public func storeURLProblems(_ policy: RedirectPolicy) -> [String] {
        let stores = ios.map { ("apps.ios '\($0.appID)'", $0.storeURL) } + android.map { ("apps.android '\($0.package)'", $0.storeURL) }
        return stores.compactMap { app, url in
            guard let url, !policy.allows(url) else { return nil }
            return "\(app): store_url '\(url)' is not allowed by redirect_allow; list its host there (or fix the URL)"
        }
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        ios = try container.decodeIfPresent([IOSApp].self, forKey: .ios) ?? []
        android = try container.decodeIfPresent([AndroidApp].self, forKey: .android) ?? []
    }
}
