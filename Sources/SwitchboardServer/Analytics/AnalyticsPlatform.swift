/// A platform as analytics count it: the three the rules know, `other` for anything else
/// (never the raw value), `none` when the request did not say. Its raw value indexes the
/// fold's counters.
enum AnalyticsPlatform: UInt8, CaseIterable {
    case none, ios, android, web, other

    /// The platform of a request context (already lowercased there).
    @inline(__always)
    init(_ platform: String?) {
        guard let platform else {
            self = .none
            return
        }
        switch platform {
        case "ios": self = .ios
        case "android": self = .android
        case "web": self = .web
        default: self = .other
        }
    }

    /// The key it is counted under.
    var key: String {
        switch self {
        case .none: Analytics.none
        case .ios: "ios"
        case .android: "android"
        case .web: "web"
        case .other: "other"
        }
    }
}
