import Foundation
import SwitchboardCore
import Yams

/// The parsed contents of a config directory (DESIGN §2):
/// `switchboard.yaml`, `routes.d/*.yaml|*.yml|*.json` and `rewrites.yaml`.
public struct ConfigDirectory: Sendable {
    /// A route file and where it came from.
    public struct LoadedRouteFile: Sendable {
        /// Path relative to the config directory, e.g. `routes.d/product.yaml`.
        public var path: String
        public var file: RouteFile
    }

    /// The directory that was read.
    public var url: URL
    public var settings: ServerSettings
    public var routeFiles: [LoadedRouteFile]
    public var rewriteRules: [RewriteRule]

    /// Reads and decodes every file; collects every problem before giving up. The files are
    /// read at the same time on all cores (largest first); the result and the problems are in
    /// file order whatever the timing.
    /// - Throws: ``ConfigIssues`` listing each broken file with the key path at fault.
    public static func load(from directory: String) throws(ConfigIssues) -> ConfigDirectory {
        let url = URL(fileURLWithPath: directory, isDirectory: true)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ConfigIssues([ConfigIssue(file: directory, message: "config directory not found")])
        }
        let routesDirectory = url.appendingPathComponent("routes.d", isDirectory: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: routesDirectory.path)) ?? []
        let routeFiles = names.sorted().filter { name in
            [".yaml", ".yml", ".json"].contains(where: name.hasSuffix) && !name.hasPrefix(".")
        }
        let files = [ConfigFile.settings, .rewrites] + routeFiles.map { ConfigFile.routes(path: "routes.d/\($0)") }
        let decoded = files.concurrentMap(cost: { byteCount(of: $0.path, in: url) }) { decode($0, in: url) }

        var config = ConfigDirectory(url: url, settings: ServerSettings(), routeFiles: [], rewriteRules: [])
        var issues: [ConfigIssue] = []
        for file in decoded {
            issues += file.issues
            switch file.contents {
            case .settings(let settings): config.settings = settings
            case .rewriteRules(let rules): config.rewriteRules = rules
            case .routeFile(let loaded): config.routeFiles.append(loaded)
            case nil: break
            }
        }
        guard issues.isEmpty else { throw ConfigIssues(issues) }
        return config
    }

    /// A file of the config directory.
    private enum ConfigFile: Sendable {
        case settings, rewrites
        case routes(path: String)

        var path: String {
            switch self {
            case .settings: "switchboard.yaml"
            case .rewrites: "rewrites.yaml"
            case .routes(let path): path
            }
        }
    }

    /// What a file decodes to (`nil` when it is absent or broken), and its problems.
    private struct DecodedFile: Sendable {
        enum Contents: Sendable {
            case settings(ServerSettings)
            case rewriteRules([RewriteRule])
            case routeFile(LoadedRouteFile)
        }

        var contents: Contents?
        var issues: [ConfigIssue] = []
    }

    private static func decode(_ file: ConfigFile, in directory: URL) -> DecodedFile {
        var decoded = DecodedFile()
        switch file {
        case .settings:
            if let text = read(file.path, in: directory, issues: &decoded.issues),
                let settings: ServerSettings = decode(text, file: file.path, issues: &decoded.issues)
            {
                decoded.contents = .settings(settings)
            }
        case .rewrites:
            if let text = read(file.path, in: directory, issues: &decoded.issues),
                let rules: RewritesFile = decode(text, file: file.path, issues: &decoded.issues)
            {
                decoded.contents = .rewriteRules(rules.rules)
            }
        case .routes(let path):
            if let routes = readRouteFile(path, in: directory, issues: &decoded.issues) {
                decoded.contents = .routeFile(LoadedRouteFile(path: path, file: routes))
            }
        }
        return decoded
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
            issues.append(ConfigIssue(file: path, message: "cannot read the file: \(error.localizedDescription)"))
            return nil
        }
    }

    /// A route file: JSON text (first non-space byte `{`) goes through ``RouteFileJSONReader``
    /// straight from the bytes; anything it does not accept, and all YAML, through Yams, so
    /// errors read the same whatever the syntax.
    private static func readRouteFile(_ path: String, in directory: URL, issues: inout [ConfigIssue]) -> RouteFile? {
        let fileURL = directory.appendingPathComponent(path)
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return nil }
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch {
            issues.append(ConfigIssue(file: path, message: "cannot read the file: \(error.localizedDescription)"))
            return nil
        }
        let fast = data.withUnsafeBytes { bytes -> RouteFile? in
            guard let first = bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }),
                first == UInt8(ascii: "{")
            else { return nil }
            return RouteFileJSONReader.read(bytes)
        }
        if let fast { return fast }
        guard let text = String(data: data, encoding: .utf8) else {
            issues.append(ConfigIssue(file: path, message: "the file is not valid UTF-8"))
            return nil
        }
        return decode(text, file: path, issues: &issues)
    }

    private static func decode<Value: Decodable>(_ text: String, file: String, issues: inout [ConfigIssue]) -> Value? {
        do {
            return try decodeYAML(Value.self, from: text)
        } catch {
            issues.append(ConfigIssue(file: file, message: DecodingErrorDescription.describe(error)))
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
        // The resolver YAMLDecoder uses for text (merge keys only).
        let parser = try Parser(yaml: text, resolver: Yams.Resolver.basic.appending(.merge))
        return try withExtendedLifetime(parser) {
            var root = try parser.singleRoot()
            if case .scalar(let scalar)? = root, scalar.style == .plain, scalar.string.isEmpty { root = nil }
            return try YAMLDecoder().decode(Value.self, from: root ?? Node.mapping(Node.Mapping([])))
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
