import Foundation
import SwitchboardCore
import Yams

/// The parsed contents of a config directory (design.md §2):
/// `switchboard.yaml`, `routes.d/*.yaml|*.yml|*.json` and `rewrites.yaml`.
package struct ConfigDirectory: Sendable {
    /// A route file and where it came from.
    package struct LoadedRouteFile: Sendable {
        /// Path relative to the config directory, e.g. `routes.d/product.yaml`.
        package var path: String
        package var file: RouteFile
    }

    /// The directory that was read.
    package var url: URL
    package var settings: ServerSettings
    package var routeFiles: [LoadedRouteFile]
    package var rewriteRules: [RewriteRule]

    /// A config directory being read: its settings and rewrite rules are decoded, and its
    /// route files are being decoded on other threads, their routes arriving through
    /// ``routeFeeds`` as `Item`s (see ``ConfigDirectory/startLoading(from:chunkSize:convert:)``).
    struct Loading<Item: Sendable>: Sendable {
        /// The directory without its route files.
        var config: ConfigDirectory
        /// What is wrong with `switchboard.yaml` and `rewrites.yaml`.
        var issues: [ConfigIssue]
        /// One feed per route file, in file order.
        var routeFeeds: [(path: String, feed: RouteFeed<Item>)]
    }

    /// Reads and decodes every file; collects every problem before giving up. The route files
    /// are decoded at the same time on all cores (largest first); the result and the problems
    /// are in file order whatever the timing.
    /// - Parameter environment: the variables that override start-only settings
    ///   (``SettingsEnvironment``); none by default.
    /// - Throws: ``ConfigIssues`` listing each broken file with the key path at fault.
    package static func load(from directory: String, environment: [String: String] = [:]) throws(ConfigIssues) -> ConfigDirectory {
        let loading = try startLoading(from: directory, chunkSize: Int.max, environment: environment) { definition, _ in
            definition
        }
        var config = loading.config
        var issues = loading.issues
        for (path, feed) in loading.routeFeeds {
            var routes: [RouteDefinition] = []
            let outcome = feed.receive { chunk in
                if routes.isEmpty { routes = chunk } else { routes += chunk }
            }
            issues += outcome.issues
            if let module = outcome.module {
                config.routeFiles.append(LoadedRouteFile(path: path, file: RouteFile(module: module, routes: routes)))
            }
        }
        guard issues.isEmpty else { throw ConfigIssues(issues) }
        return config
    }

    /// Starts reading a config directory: the route files are decoded on threads of their own
    /// (as many as there are cores, the largest file first), their routes sent `chunkSize` at a
    /// time; `switchboard.yaml` and `rewrites.yaml` are decoded on this thread meanwhile.
    /// Every feed of the result must be received to the end.
    /// - Parameter environment: the variables that override start-only settings (``SettingsEnvironment``).
    /// - Parameter convert: makes what the feeds carry from each route and its file's module,
    ///   on the decoding threads (work taken off the thread that receives).
    /// - Throws: ``ConfigIssues`` when the directory does not exist (any other problem is in
    ///   the result).
    static func startLoading<Item: Sendable>(
        from directory: String, chunkSize: Int, environment: [String: String],
        convert: @escaping @Sendable (_ definition: RouteDefinition, _ module: String) -> Item
    ) throws(ConfigIssues) -> Loading<Item> {
        let url = URL(fileURLWithPath: directory, isDirectory: true)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ConfigIssues([ConfigIssue(file: directory, message: "config directory not found", code: ConfigIssue.unreadableCode)])
        }
        let routesDirectory = url.appendingPathComponent("routes.d", isDirectory: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: routesDirectory.path)) ?? []
        let routeFeeds = names.sorted().filter { name in
            [".yaml", ".yml", ".json"].contains(where: name.hasSuffix) && !name.hasPrefix(".")
        }.map { (path: "routes.d/\($0)", feed: RouteFeed<Item>()) }
        let decoding = Thread {
            routeFeeds.concurrentForEach(cost: { byteCount(of: $0.path, in: url) }) { file in
                decodeRouteFile(file.path, in: url, chunkSize: chunkSize, convert: convert, into: file.feed)
            }
        }
        decoding.start()

        var loading = Loading(
            config: ConfigDirectory(url: url, settings: ServerSettings(), routeFiles: [], rewriteRules: []), issues: [],
            routeFeeds: routeFeeds)
        if let text = read("switchboard.yaml", in: url, issues: &loading.issues),
            let settings = decodeSettings(text, environment: SettingsEnvironment(environment), issues: &loading.issues)
        {
            loading.config.settings = settings
            let policy = RedirectPolicy(
                allowedHosts: settings.redirectAllow, allowHTTP: settings.redirectAllowHTTP, appSchemes: settings.schemes)
            loading.issues += settings.apps.storeURLProblems(policy).map {
                ConfigIssue(file: "switchboard.yaml", item: "apps", message: $0)
            }
        }
        if let text = read("rewrites.yaml", in: url, issues: &loading.issues),
            let rules: RewritesFile = decode(text, file: "rewrites.yaml", issues: &loading.issues)
        {
            loading.config.rewriteRules = rules.rules
        }
        return loading
    }

    /// The size of a file of the directory in bytes (0 when it cannot be known): how long it
    /// takes to decode, roughly.
    private static func byteCount(of path: String, in directory: URL) -> Int {
        let attributes = try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(path).path)
        return (attributes?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// The text of an optional file; `nil` when absent (a file that exists but cannot be
    /// read is an issue).
    private static func read(_ path: String, in directory: URL, issues: inout [ConfigIssue]) -> String? {
        let fileURL = directory.appendingPathComponent(path)
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return nil }
        do {
            let data = try Data(contentsOf: fileURL)
            guard let text = String(data: data, encoding: .utf8) else {
                issues.append(ConfigIssue(file: path, message: "the file is not valid UTF-8"))
                return nil
            }
            return text
        } catch {
            issues.append(
                ConfigIssue(
                    file: path, message: "cannot read the file: \(error.localizedDescription)", code: ConfigIssue.unreadableCode))
            return nil
        }
    }

    /// Decodes a route file into `feed` (then finishes it). JSON text (first non-space byte
    /// `{`) goes through ``RouteFileJSONReader`` straight from the bytes, its routes sent as
    /// they are read; anything it does not accept, and all YAML, through Yams (only the routes
    /// not sent yet are sent then), so errors read the same whatever the syntax. Each route is
    /// sent as `convert` makes it.
    private static func decodeRouteFile<Item: Sendable>(
        _ path: String, in directory: URL, chunkSize: Int,
        convert: (_ definition: RouteDefinition, _ module: String) -> Item, into feed: RouteFeed<Item>
    ) {
        var outcome = RouteFeed<Item>.Outcome()
        defer { feed.finish(outcome) }
        let fileURL = directory.appendingPathComponent(path)
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return }
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch {
            outcome.issues.append(
                ConfigIssue(
                    file: path, message: "cannot read the file: \(error.localizedDescription)", code: ConfigIssue.unreadableCode))
            return
        }
        var sent = 0
        let module = data.withUnsafeBytes { bytes -> String? in
            guard let first = bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }),
                first == UInt8(ascii: "{")
            else { return nil }
            return RouteFileJSONReader.read(bytes, chunkSize: chunkSize) { module, routes in
                sent += routes.count
                feed.send(routes.map { convert($0, module) })
            }
        }
        if let module {
            outcome.module = module
            outcome.routeCount = sent
            return
        }
        guard let text = String(data: data, encoding: .utf8) else {
            outcome.issues.append(ConfigIssue(file: path, message: "the file is not valid UTF-8"))
            return
        }
        guard let file: RouteFile = decode(text, file: path, issues: &outcome.issues) else { return }
        // What the fast reader sent before giving up is the start of the same list.
        if file.routes.count > sent {
            feed.send(file.routes[sent...].map { convert($0, file.module) })
        }
        outcome.module = file.module
        outcome.routeCount = file.routes.count
    }

    /// `switchboard.yaml` with the settings `environment` gives put in.
    static func decodeSettings(
        _ text: String, environment: SettingsEnvironment, issues: inout [ConfigIssue]
    ) -> ServerSettings? {
        do {
            let root = environment.applied(to: try parseYAML(text), issues: &issues)
            return try YAMLDecoder().decode(ServerSettings.self, from: root ?? Node.mapping(Node.Mapping([])))
        } catch {
            issues.append(ConfigIssue(file: "switchboard.yaml", message: DecodingErrorDescription.describeConfigError(error)))
            return nil
        }
    }

    private static func decode<Value: Decodable>(_ text: String, file: String, issues: inout [ConfigIssue]) -> Value? {
        do {
            return try decodeYAML(Value.self, from: text)
        } catch {
            issues.append(
                ConfigIssue(
                    file: file, message: DecodingErrorDescription.describeConfigError(error),
                    code: error is YamlError ? "yaml_syntax" : "invalid_schema", position: SourcePosition.of(error, in: text)))
            return nil
        }
    }
}

extension ConfigDirectory {
    /// Decodes YAML text, parsing it once.
    ///
    /// A file with no content (empty, only comments, or a bare `---`) has no keys: every
    /// optional key takes its default, instead of "expected a mapping".
    /// - Throws: `YamlError` for a syntax error, `DecodingError` for a schema error (as
    ///   `YAMLDecoder.decode(_:from:)` with a `String` does, after the syntax check).
    package static func decodeYAML<Value: Decodable>(_ type: Value.Type, from text: String) throws -> Value {
        try YAMLDecoder().decode(Value.self, from: try parseYAML(text) ?? Node.mapping(Node.Mapping([])))
    }

    /// The root node of YAML text; `nil` for a file with no content.
    ///
    /// - Throws: `YamlError` for a syntax error.
    static func parseYAML(_ text: String) throws -> Node? {
        // The resolver YAMLDecoder uses for text (merge keys only).
        let parser = try Parser(yaml: text, resolver: Yams.Resolver.basic.appending(.merge))
        return try withExtendedLifetime(parser) {
            let root = try parser.singleRoot()
            if case .scalar(let scalar)? = root, scalar.style == .plain, scalar.string.isEmpty { return nil }
            return root
        }
    }
}

/// `rewrites.yaml`: `rules: [{id, match, target, last?}, ...]`.
struct RewritesFile: Decodable {
    var rules: [RewriteRule]

    enum CodingKeys: String, CodingKey, CaseIterable { case rules }

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rules = try container.decodeIfPresent([RewriteRule].self, forKey: .rules) ?? []
    }
}
