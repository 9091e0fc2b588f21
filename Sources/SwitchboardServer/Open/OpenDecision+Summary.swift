import SwitchboardCore

extension OpenDecision {
    /// Where `GET /open` sends each platform for a link of `route`, in words, as the console's
    /// Routes page shows it: `{"ios", "android", "web", "preview"}`, each one of the steps of
    /// ``decide(_:platform:settings:policy:)`` (whether a destination passes `redirect_allow`
    /// depends on the link, so it is not judged here).
    package static func summary(for route: Route, settings: ServerSettings) -> JSONValue {
        let hasWeb = route.web != nil
        let web = hasWeb ? "web page" : "404"
        let appStore = route.app && settings.apps.ios.first?.storeURL != nil
        let playStore = route.app && settings.apps.android.first?.storeURL != nil
        let ios = route.open?.ios != nil ? "open.ios" : hasWeb ? "web page" : appStore ? "App Store" : "404"
        let android: String
        if route.open?.android != nil {
            android = "open.android"
        } else if route.app, !settings.apps.android.isEmpty, !settings.schemes.isEmpty {
            android = "app (intent), else " + (hasWeb ? "web page" : playStore ? "Play Store" : "Play Store search")
        } else {
            android = hasWeb ? "web page" : playStore ? "Play Store" : "404"
        }
        return .object([
            ("ios", .string(ios)), ("android", .string(android)), ("web", .string(web)),
            ("preview", .string(hasWeb ? "preview page" : "404")),
        ])
    }
}
