/// The https path patterns of a route table as apple-app-site-association `components`, in
/// the router's priority order, ready to be filtered per requested host.
///
/// Every expansion of every pattern that can match an `https` link is kept: path-only
/// patterns (they apply to every domain in `domains`) and `https://host/…` patterns (only for
/// that host). Custom-scheme and `http`-only patterns are left out. In the `/` value,
/// `:param` (constrained or not) and catch-alls become `*`. Routes with `app: false` become
/// `exclude: true` components.
///
/// Order: more segments first, then the router's priority per segment from left to right
/// (static, constrained, `:param`, catch-all), then host-restricted before path-only, then by
/// text. In AASA `*` also matches `/`, so a pattern of k segments only matches paths of k or
/// more segments, and among patterns of the same length the first matching component is the
/// route the router picks; longer patterns go first so that a shorter `…/*` cannot claim their
/// paths. (A trailing `*` still claims deeper paths no longer pattern takes: AASA cannot say
/// "one segment".) The first `/` value wins; repeats are dropped.
public struct AppLinkComponents: Sendable {
    /// One component, with the host it is restricted to (`nil`: every domain).
    struct Entry: Sendable {
        var host: String?
        var path: String
        var exclude: Bool
        var routeID: String
        var ranks: [Int]
        var labels: [String]
    }

    let entries: [Entry]
    let domains: Set<String>

    /// - Parameters:
    ///   - routes: the router's routes (their patterns parse: the router accepted them).
    ///   - domains: the web domains whose links are app links (lowercased).
    public init(routes: some Sequence<Route>, domains: some Sequence<String>) {
        var entries: [Entry] = []
        for route in routes {
            for text in route.patterns {
                guard let expansions = try? RoutePattern.parse(text) else { continue }
                for pattern in expansions {
                    switch pattern.scheme {
                    case nil, "https": break
                    default: continue
                    }
                    var ranks: [Int] = []
                    var labels: [String] = []
                    for segment in pattern.segments {
                        switch segment {
                        case .literal(let text):
                            ranks.append(0)
                            labels.append(Self.escaped(text))
                        case .parameter(_, let constraint):
                            ranks.append(constraint == nil ? 2 : 1)
                            labels.append("*")
                        case .catchAll:
                            ranks.append(3)
                            labels.append("*")
                        }
                    }
                    entries.append(
                        Entry(
                            host: pattern.host, path: "/" + labels.joined(separator: "/"), exclude: !route.app,
                            routeID: route.id, ranks: ranks, labels: labels))
                }
            }
        }
        entries.sort(by: Self.precedes)
        self.entries = entries
        self.domains = Set(domains.map { $0.lowercased() })
    }

    /// The components for one requested host (lowercased, without port): host-restricted
    /// patterns for that host, and path-only patterns when the host is in `domains`. A `/`
    /// value already published (by a higher-priority route) is not repeated.
    public func components(forHost host: String) -> JSONValue {
        let host = host.lowercased()
        let isDomain = domains.contains(host)
        var seen: Set<String> = []
        var components: [JSONValue] = []
        for entry in entries {
            if let restricted = entry.host {
                guard restricted == host else { continue }
            } else {
                guard isDomain else { continue }
            }
            guard seen.insert(entry.path).inserted else { continue }
            var members: [(key: String, value: JSONValue)] = [("/", .string(entry.path))]
            if entry.exclude { members.append(("exclude", .bool(true))) }
            members.append(("comment", .string(entry.routeID)))
            components.append(.object(members))
        }
        return .array(components)
    }

    /// The router's order (see the type's documentation).
    static func precedes(_ lhs: Entry, _ rhs: Entry) -> Bool {
        if lhs.ranks.count != rhs.ranks.count { return lhs.ranks.count > rhs.ranks.count }
        for (left, right) in zip(lhs.ranks, rhs.ranks) where left != right {
            return left < right
        }
        if (lhs.host == nil) != (rhs.host == nil) { return lhs.host != nil }
        if lhs.labels != rhs.labels { return lhs.labels.lexicographicallyPrecedes(rhs.labels) }
        return (lhs.host ?? "") < (rhs.host ?? "")
    }

    /// A static segment in an AASA `/` value: `*` and `?` are wildcards there, so they become
    /// `?` (one character), which also matches themselves.
    static func escaped(_ text: String) -> String {
        String(text.map { $0 == "*" ? "?" : $0 })
    }
}

/// The two association files, from the configured apps and the route table.
public enum AssociationFiles {
    /// `/.well-known/apple-app-site-association` for one host:
    /// `{"applinks": {"details": [{"appIDs": [...], "components": [...]}]}}`.
    public static func appleAppSiteAssociation(apps: AppsSettings, components: AppLinkComponents, host: String) -> JSONValue {
        let details: [JSONValue] =
            apps.ios.isEmpty
            ? []
            : [
                .object([
                    ("appIDs", .array(apps.ios.map { .string($0.appID) })),
                    ("components", components.components(forHost: host)),
                ])
            ]
        return .object([("applinks", .object([("details", .array(details))]))])
    }

    /// `/.well-known/assetlinks.json`: one statement per Android app.
    public static func assetLinks(apps: AppsSettings) -> JSONValue {
        .array(
            apps.android.map { app in
                .object([
                    ("relation", .array([.string("delegate_permission/common.handle_all_urls")])),
                    (
                        "target",
                        .object([
                            ("namespace", .string("android_app")),
                            ("package_name", .string(app.package)),
                            ("sha256_cert_fingerprints", .array(app.sha256.map(JSONValue.string))),
                        ])
                    ),
                ])
            })
    }
}
