/// A route's own destinations per platform for `GET /open` (`open:` in a route file): where an
/// iPhone or an Android phone is sent instead of the route's web page or the app's store.
/// Each still has to pass `redirect_allow` when a request is answered.
///
/// ```yaml
/// open: { ios: "https://apps.apple.com/app/id123?ct=spring", android: "https://play.google.com/store/apps/details?id=com.example.shop" }
/// ```
public struct PlatformDestinations: Sendable, Hashable, Codable {
    /// Where `/open` sends iOS.
    public var ios: String?
    /// Where `/open` sends Android.
    public var android: String?

    /// Destinations for the given platforms.
    public init(ios: String? = nil, android: String? = nil) {
        self.ios = ios
        self.android = android
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case ios, android }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        ios = try container.decodeIfPresent(String.self, forKey: .ios)
        android = try container.decodeIfPresent(String.self, forKey: .android)
        for (key, value) in [(CodingKeys.ios, ios), (.android, android)] {
            if let value, (try? ParsedURL.parse(value)) == nil {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container,
                    debugDescription: "'\(value)' is not an absolute URL (the \(key.rawValue) destination of /open)")
            }
        }
    }

    /// The destinations as route files and the admin state write them.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let ios { members.append(("ios", .string(ios))) }
        if let android { members.append(("android", .string(android))) }
        return .object(members)
    }
}
