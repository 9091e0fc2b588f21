import SwitchboardCore

/// `switchboard applinks check` (design.md §11): a host's association files, as published, against
/// what the config generates for that host. Semantic: both are evaluated with each platform's
/// matching rules (``AppLinkMatching``) on the route table's sample paths, per configured app.
package enum AppLinkDrift {
    /// One sample path where a published file and the generated one disagree.
    package struct Difference: Sendable, Hashable, CustomStringConvertible {
        /// `ios` or `android`.
        package var platform: String
        /// The app's id (`TEAMID.bundle.id`, or the package name).
        package var app: String
        /// The sample path.
        package var path: String
        /// Whether the published file opens the app there (the generated one says the opposite).
        package var opensLive: Bool

        package var description: String {
            opensLive
                ? "\(platform) \(app): \(path) opens the app but should not"
                : "\(platform) \(app): \(path) does not open the app but should"
        }
    }

    /// Why a published file cannot be compared.
    package struct InputError: Error, Sendable, Hashable, CustomStringConvertible {
        package var message: String
        package var description: String { message }
    }

    /// The differences for `host` between the published files (`nil`: not published, 404)
    /// and the ones `snapshot` generates. A platform without a configured app is not compared.
    ///
    /// - Throws: ``InputError`` when a published file is not the JSON its format asks for.
    package static func compare(
        snapshot: Snapshot, host: String, publishedAASA: [UInt8]?, publishedAssetLinks: [UInt8]?
    ) throws(InputError) -> [Difference] {
        let apps = snapshot.config.settings.apps
        let components = snapshot.appLinkComponents
        let paths = samplePaths(snapshot: snapshot, host: host)
        var differences: [Difference] = []
        if !apps.ios.isEmpty {
            let generated = AssociationFiles.appleAppSiteAssociation(apps: apps, components: components, host: host)
            let live = try publishedAASA.map { (bytes) throws(InputError) in try parse(bytes, "apple-app-site-association") }
            for app in apps.ios {
                let expected = try appleComponents(generated, appID: app.appID)
                let published = try live.map { (file) throws(InputError) in try appleComponents(file, appID: app.appID) } ?? nil
                for path in paths {
                    let link = AppLinkMatching.Link(path: path)
                    let should = expected.map { AppLinkMatching.appleOpens($0, link) } ?? false
                    let does = published.map { AppLinkMatching.appleOpens($0, link) } ?? false
                    if should != does { differences.append(Difference(platform: "ios", app: app.appID, path: path, opensLive: does)) }
                }
            }
        }
        if !apps.android.isEmpty {
            let generated = AssociationFiles.assetLinks(apps: apps, components: components, host: host)
            let live = try publishedAssetLinks.map { (bytes) throws(InputError) in try parse(bytes, "assetlinks.json") }
            for app in apps.android {
                let expected = try androidRules(generated, package: app.package)
                let published = try live.map { (file) throws(InputError) in try androidRules(file, package: app.package) } ?? .absent
                for path in paths {
                    let link = AppLinkMatching.Link(path: path)
                    let should = expected.opens(link)
                    let does = published.opens(link)
                    if should != does { differences.append(Difference(platform: "android", app: app.package, path: path, opensLive: does)) }
                }
            }
        }
        return differences
    }

    /// What a statement of assetlinks.json says for one app.
    enum AndroidRules {
        /// No statement for the app: nothing opens.
        case absent
        /// A statement without dynamic rules: every path of the verified host opens.
        case all
        /// The dynamic rules.
        case rules([JSONValue])

        func opens(_ link: AppLinkMatching.Link) -> Bool {
            switch self {
            case .absent: false
            case .all: true
            case .rules(let components): AppLinkMatching.androidOpens(components, link)
            }
        }
    }

    /// Sample paths of the routes that apply to `host`'s https links: each pattern with sample
    /// values, with a segment more, a segment less and a trailing `/`; and `/`.
    static func samplePaths(snapshot: Snapshot, host: String) -> [String] {
        let host = host.lowercased()
        let isDomain = snapshot.config.settings.domains.contains(host)
        var paths: Set<String> = ["/"]
        for route in snapshot.resolver.router.routes {
            for text in route.patterns {
                for pattern in (try? RoutePattern.parse(text)) ?? [] {
                    guard pattern.scheme == nil || pattern.scheme == "https" else { continue }
                    if let restricted = pattern.host {
                        guard restricted == host || restricted == host + ":443" else { continue }
                    } else {
                        guard isDomain else { continue }
                    }
                    var segments: [String] = []
                    for segment in pattern.segments {
                        switch segment {
                        case .literal(let literal): segments.append(AppLinkComponents.label(literal).text)
                        case .parameter(_, let constraint):
                            segments.append(PatternSample.candidates.first { PatternSample.accepts(constraint, $0) } ?? "sample")
                        case .catchAll: segments.append("sample/rest")
                        }
                    }
                    let path = "/" + segments.joined(separator: "/")
                    paths.insert(path)
                    paths.insert(path == "/" ? "/sample" : path + "/sample")
                    if path != "/" { paths.insert(path + "/") }
                    if !segments.isEmpty { paths.insert("/" + segments.dropLast().joined(separator: "/")) }
                }
            }
        }
        return paths.sorted()
    }

    private static func parse(_ bytes: [UInt8], _ name: String) throws(InputError) -> JSONValue {
        guard let value = JSONValue(parsing: bytes) else { throw InputError(message: "\(name) is not JSON") }
        return value
    }

    /// The `components` of the AASA detail that lists `appID`; `nil` when none lists it.
    private static func appleComponents(_ file: JSONValue, appID: String) throws(InputError) -> [JSONValue]? {
        guard case .array(let details)? = file["applinks"]?["details"] else {
            throw InputError(message: "apple-app-site-association has no applinks.details array")
        }
        for detail in details {
            var ids: [String] = []
            if case .array(let list)? = detail["appIDs"] { ids = list.compactMap(\.stringValue) }
            if let single = detail["appID"]?.stringValue { ids.append(single) }
            guard ids.contains(appID) else { continue }
            guard case .array(let components)? = detail["components"] else {
                throw InputError(
                    message:
                        "apple-app-site-association: the detail of \(appID) has no components (the legacy 'paths' format is not compared)")
            }
            return components
        }
        return nil
    }

    /// The statement of assetlinks.json for `package`.
    private static func androidRules(_ file: JSONValue, package: String) throws(InputError) -> AndroidRules {
        guard case .array(let statements) = file else { throw InputError(message: "assetlinks.json is not an array of statements") }
        for statement in statements {
            guard statement["target"]?["package_name"]?.stringValue == package else { continue }
            guard case .array(let relations)? = statement["relation"],
                relations.contains(.string(AssociationFiles.handleAllURLs))
            else { continue }
            let dynamic = statement["relation_extensions"]?[AssociationFiles.handleAllURLs]?["dynamic_app_link_components"]
            guard let dynamic else { return .all }
            guard case .array(let rules) = dynamic else {
                throw InputError(message: "assetlinks.json: dynamic_app_link_components of \(package) is not an array")
            }
            return .rules(rules)
        }
        return .absent
    }
}
