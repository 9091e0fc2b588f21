/// An example URL attached to a rule or a route, with what it must resolve to: config tests that
/// `switchboard check` runs.
///
/// ```yaml
/// examples:
///   - shopapp://product/42                       # a route: resolves here; a rule: the rule fires
///   - url: https://www.shop.example.com/search/shoes
///     rewritesTo: shopapp://search/shoes           # the final rewritten URL
///     routeId: search.results                      # the route it ends on
///     params: { query: shoes }                     # params it must carry (others may exist too)
///   - { url: "shopapp://product/abc", matched: false }
///   - url: shopapp://home                          # resolved as this app, at this time, would ask
///     platform: ios
///     appVersion: 5.3.0
///     device: device-42
///     at: 2026-11-11T01:00:00+08:00
///     rewritesTo: shopapp://promo/1111
///   - { url: shopapp://live/7, appVersion: 5.1.0, openWeb: true }   # below the route's minAppVersion
/// ```
///
/// Without `at`, the example resolves with no time (rules with a time window do not apply),
/// as `switchboard check` always did; the other context parts are absent unless given.
public struct ConfigExample: Sendable, Hashable, Codable {
    /// The URL to resolve.
    public var url: String
    /// The final URL after the rewrite rules (`nil`: not checked).
    public var rewritesTo: String?
    /// The route it must end on (`nil`: the owning route for a route example, not checked for a rule).
    public var routeId: String?
    /// Params the resolution must carry with these values.
    public var params: [String: String]?
    /// Whether it must match a route at all (`false` for a counter-example).
    public var matched: Bool?
    /// Whether the answer must tell the app to open the route's web page instead (the app is
    /// below the route's `minAppVersion`).
    public var openWeb: Bool?
    /// The asking app's platform: `ios`, `android` or `web` (lowercased).
    public var platform: String?
    /// The asking app's version, such as `5.3.0`.
    public var appVersion: String?
    /// The asking device's id (percentage rollouts).
    public var device: String?
    /// The time of the request: RFC 3339 with an offset, such as `2026-11-11T01:00:00+08:00`.
    public var at: String?

    /// An example URL and what its resolution must show; `nil` parts are not checked.
    public init(
        url: String, rewritesTo: String? = nil, routeId: String? = nil, params: [String: String]? = nil,
        matched: Bool? = nil, openWeb: Bool? = nil, platform: String? = nil, appVersion: String? = nil, device: String? = nil,
        at: String? = nil
    ) {
        self.url = url
        self.rewritesTo = rewritesTo
        self.routeId = routeId
        self.params = params
        self.matched = matched
        self.openWeb = openWeb
        self.platform = platform
        self.appVersion = appVersion
        self.device = device
        self.at = at
    }

    /// Whether the example says anything of the asking app or the time.
    public var hasContext: Bool {
        platform != nil || appVersion != nil || device != nil || at != nil
    }

    /// The request the example stands for: its platform, version, device and time (no time
    /// when `at` is not given).
    public var context: RequestContext {
        RequestContext(platform: platform, appVersion: appVersion, deviceID: device, now: at.flatMap(RFC3339.seconds))
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case url, rewritesTo, routeId, params, matched, openWeb, platform, appVersion, device, at
    }

    /// Decodes a plain URL string or an object with `url` and expectations.
    public init(from decoder: any Decoder) throws {
        if let url = try? decoder.singleValueContainer().decode(String.self) {
            self.init(url: url)
            return
        }
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            url: try container.decode(String.self, forKey: .url),
            rewritesTo: try container.decodeIfPresent(String.self, forKey: .rewritesTo),
            routeId: try container.decodeIfPresent(String.self, forKey: .routeId),
            params: try container.decodeIfPresent([String: String].self, forKey: .params),
            matched: try container.decodeIfPresent(Bool.self, forKey: .matched),
            openWeb: try container.decodeIfPresent(Bool.self, forKey: .openWeb),
            platform: try container.decodeIfPresent(String.self, forKey: .platform).map { $0.lowercased() },
            appVersion: try container.decodeIfPresent(String.self, forKey: .appVersion),
            device: try container.decodeIfPresent(String.self, forKey: .device),
            at: try container.decodeIfPresent(String.self, forKey: .at))
        // A context the server would not take is refused here, so that an example never
        // passes because a typo silently left part of its context out.
        if let platform, !["ios", "android", "web"].contains(platform) {
            throw DecodingError.dataCorruptedError(
                forKey: .platform, in: container, debugDescription: "platform must be ios, android or web, not '\(platform)'")
        }
        if let appVersion, SemanticVersion(appVersion) == nil {
            throw DecodingError.dataCorruptedError(
                forKey: .appVersion, in: container, debugDescription: "appVersion '\(appVersion)' is not a version such as 5.3.0")
        }
        if let device, device.isEmpty {
            throw DecodingError.dataCorruptedError(forKey: .device, in: container, debugDescription: "device is empty")
        }
        if let at, RFC3339.seconds(at) == nil {
            throw DecodingError.dataCorruptedError(
                forKey: .at, in: container,
                debugDescription: "at '\(at)' is not an RFC 3339 date-time with an offset, such as 2026-11-11T01:00:00+08:00")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        if rewritesTo == nil, routeId == nil, params == nil, matched == nil, openWeb == nil, !hasContext {
            var container = encoder.singleValueContainer()
            try container.encode(url)
            return
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(url, forKey: .url)
        try container.encodeIfPresent(rewritesTo, forKey: .rewritesTo)
        try container.encodeIfPresent(routeId, forKey: .routeId)
        try container.encodeIfPresent(params, forKey: .params)
        try container.encodeIfPresent(matched, forKey: .matched)
        try container.encodeIfPresent(openWeb, forKey: .openWeb)
        try container.encodeIfPresent(platform, forKey: .platform)
        try container.encodeIfPresent(appVersion, forKey: .appVersion)
        try container.encodeIfPresent(device, forKey: .device)
        try container.encodeIfPresent(at, forKey: .at)
    }
}
