import SwitchboardCore
import SwitchboardHTTP

/// The association files that make universal links and Android App Links work: served with
/// `200 application/json`, no auth and no redirect, generated from `apps` and the routes.
struct WellKnownEndpoint: Sendable {
    static let appleAppSiteAssociationPath = "/.well-known/apple-app-site-association"
    static let assetLinksPath = "/.well-known/assetlinks.json"

    let context: ServerContext

    /// The AASA file for the request's `Host` (without port): path-only routes when the host
    /// is one of `domains`, plus the routes restricted to `https://<host>/…`.
    func appleAppSiteAssociation(_ request: APIRequest) -> HTTPResponse {
        let snapshot = context.snapshot
        let host = Self.hostName(request.http.header("Host") ?? "")
        let file = AssociationFiles.appleAppSiteAssociation(
            apps: snapshot.config.settings.apps, components: snapshot.appLinkComponents, host: host)
        return .json(file.jsonText)
    }

    /// The Digital Asset Links statements of the configured Android apps, with the dynamic
    /// rules for the request's `Host` (the same components as the AASA file).
    func assetLinks(_ request: APIRequest) -> HTTPResponse {
        let snapshot = context.snapshot
        let host = Self.hostName(request.http.header("Host") ?? "")
        let file = AssociationFiles.assetLinks(apps: snapshot.config.settings.apps, components: snapshot.appLinkComponents, host: host)
        return .json(file.jsonText)
    }

    /// `Host` without its port, lowercased (`[::1]:8080` → `[::1]`).
    static func hostName(_ header: String) -> String {
        let lowered = header.lowercased()
        if lowered.hasPrefix("["), let close = lowered.firstIndex(of: "]") {
            return String(lowered[...close])
        }
        return String(lowered.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }
}
