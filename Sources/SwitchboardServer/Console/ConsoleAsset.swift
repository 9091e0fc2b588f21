/// One file of the admin console, embedded in the binary: the console needs no file on disk,
/// no CDN and no build step, and what is served is exactly what was compiled in.
struct ConsoleAsset: Sendable {
    /// Its `Content-Type`.
    let contentType: String
    let bytes: [UInt8]

    /// The page served at `/console`.
    static let page = ConsoleAsset(contentType: "text/html; charset=utf-8", bytes: PackageResources.index_html)

    /// The files served at `/console/<name>`, by name.
    static let files: [String: ConsoleAsset] = [
        "console.css": ConsoleAsset(contentType: "text/css; charset=utf-8", bytes: PackageResources.console_css),
        "console.js": script(PackageResources.console_js),
        "dom.js": script(PackageResources.dom_js),
        "api.js": script(PackageResources.api_js),
        "routes.js": script(PackageResources.routes_js),
        "rules.js": script(PackageResources.rules_js),
        "preview.js": script(PackageResources.preview_js),
        "try.js": script(PackageResources.try_js),
        "history.js": script(PackageResources.history_js),
        "status.js": script(PackageResources.status_js),
        "analytics.js": script(PackageResources.analytics_js),
    ]

    private static func script(_ bytes: [UInt8]) -> ConsoleAsset {
        ConsoleAsset(contentType: "text/javascript; charset=utf-8", bytes: bytes)
    }
}
