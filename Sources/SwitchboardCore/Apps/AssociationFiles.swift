/// The two association files, from the configured apps and the route table.
public enum AssociationFiles {
    /// The relation of App Links and its dynamic rules (Android 15+).
    public static let handleAllURLs = "delegate_permission/common.handle_all_urls"

    /// `/.well-known/apple-app-site-association` for one host:
    /// `{"applinks": {"details": [{"appIDs": [...], "components": [...]}]}}`.
    public static func appleAppSiteAssociation(apps: AppsSettings, components: AppLinkComponents, host: String) -> JSONValue {
        let details: [JSONValue] =
            apps.ios.isEmpty
            ? []
            : [
                .object([
                    ("appIDs", .array(apps.ios.map { .string($0.appID) })),
                    ("components", .array(components.components(forHost: host).map { $0.json(commentKey: "comment") })),
                ])
            ]
        return .object([("applinks", .object([("details", .array(details))]))])
    }

    /// `/.well-known/assetlinks.json` for one host: one statement per Android app, each with
    /// the host's `dynamic_app_link_components` (Android 15+; earlier versions ignore them).
    /// A host no route publishes gets one exclude-all rule, so that an empty list is never
    /// read as "no rules".
    public static func assetLinks(apps: AppsSettings, components: AppLinkComponents, host: String) -> JSONValue {
        var rules = components.components(forHost: host)
        if rules.isEmpty {
            rules = [AppLinkComponent(path: "*", exclude: true, comment: "no route is an app link on this host")]
        }
        let dynamic = JSONValue.array(rules.map { $0.json(commentKey: "comments") })
        return .array(
            apps.android.map { app in
                .object([
                    ("relation", .array([.string(handleAllURLs)])),
                    (
                        "target",
                        .object([
                            ("namespace", .string("android_app")),
                            ("package_name", .string(app.package)),
                            ("sha256_cert_fingerprints", .array(app.sha256.map(JSONValue.string))),
                        ])
                    ),
                    ("relation_extensions", .object([(handleAllURLs, .object([("dynamic_app_link_components", dynamic)]))])),
                ])
            })
    }
}
