/// What a request says about the app asking, for conditional rules and `minAppVersion`:
/// `platform`, `appVersion` and `device` query parameters or the `X-App-Platform`,
/// `X-App-Version` and `X-Device-Id` headers, plus the time of the request.
public struct RequestContext: Sendable, Hashable {
    /// `ios`, `android` or `web` (lowercased); `nil` when not given.
    public var platform: String?
    /// The app's version; `nil` when not given or not a version.
    public var appVersion: SemanticVersion?
    /// A stable device id for percentage rollouts; `nil` when not given.
    public var deviceID: String?
    /// Seconds since the Unix epoch (the server's injectable clock); `nil`: rules with a time
    /// window never apply.
    public var now: Double?

    /// An RFC 3339 date-time (`2026-11-11T01:00:00+08:00`; the offset is required) as seconds
    /// since the Unix epoch, for ``now``; `nil` when `text` is not one.
    public static func seconds(rfc3339 text: String) -> Double? {
        RFC3339.seconds(text)
    }

    /// - Parameters: see the properties; `appVersion` is parsed, and ignored when it is not a version.
    public init(platform: String? = nil, appVersion: String? = nil, deviceID: String? = nil, now: Double? = nil) {
        self.platform = platform.map { $0.lowercased() }
        self.appVersion = appVersion.flatMap(SemanticVersion.init)
        self.deviceID = deviceID.flatMap { $0.isEmpty ? nil : $0 }
        self.now = now
    }
}
