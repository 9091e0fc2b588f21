import Foundation
import SwitchboardCore
import SwitchboardServer
import SwitchboardStore

/// An admin state (and a config directory, when merged) as the files of a config directory:
/// `rewrites.yaml` with the admin rules before the config's rules (the order they run in), one
/// route file per module of the admin routes, and the config's other files as they are.
struct ConfigExport {
    /// The admin state exported.
    let admin: AdminState
    /// The config directory merged in, if any.
    let config: ConfigDirectory?
    /// The files written from the admin state (and the merged rules), by path relative to the directory.
    let files: [(path: String, text: String)]

    /// - Throws: ``ExportError/badInput(_:)`` when an admin route file would replace a file of the config.
    init(admin: AdminState, config: ConfigDirectory?) throws(ExportError) {
        self.admin = admin
        self.config = config
        let rules = admin.rules + (config?.rewriteRules ?? [])
        var files: [(path: String, text: String)] = [
            (
                "rewrites.yaml",
                "# Admin rules (version \(admin.version)) first, then the config's: the order they run in.\n"
                    + JSONValue.object([("rules", .array(rules.map(\.fileJSON)))]).yamlText
            )
        ]
        var modules: [String] = []
        var byModule: [String: [AdminRoute]] = [:]
        for route in admin.routes {
            if byModule[route.module] == nil { modules.append(route.module) }
            byModule[route.module, default: []].append(route)
        }
        let configFiles = Set(config?.routeFiles.map(\.path) ?? [])
        for module in modules {
            let path = "routes.d/admin.\(Self.fileName(module)).yaml"
            guard !configFiles.contains(path), !files.contains(where: { $0.path == path }) else {
                throw .badInput("the admin routes of module '\(module)' would go to \(path), which exists; rename that file of the config")
            }
            let routes = (byModule[module] ?? []).map { route -> JSONValue in
                guard case .object(let members) = route.fileJSON else { return route.fileJSON }
                return .object(members.filter { $0.key != "module" })
            }
            let text =
                "# Admin routes of module \(module) (version \(admin.version)).\n"
                + JSONValue.object([("module", .string(module)), ("routes", .array(routes))]).yamlText
            files.append((path, text))
        }
        self.files = files
    }

    /// A module as a file name: characters other than letters, digits, `.`, `-` and `_` become `_`.
    private static func fileName(_ module: String) -> String {
        String(
            module.unicodeScalars.map { scalar in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || ".-_".unicodeScalars.contains(scalar))
                    ? Character(scalar) : "_"
            })
    }

    /// Writes the directory: into a new sibling first, checked by loading it as the server
    /// would, then moved to `output`, so that a failure leaves nothing behind.
    ///
    /// - Throws: ``ExportError/badInput(_:)`` when `output` is not new or empty, or the result
    ///   does not load.
    func write(to output: String) throws(ExportError) {
        let fileManager = FileManager.default
        let target = URL(fileURLWithPath: output, isDirectory: true).standardizedFileURL
        if fileManager.fileExists(atPath: target.path) {
            let entries = (try? fileManager.contentsOfDirectory(atPath: target.path)) ?? ["?"]
            guard entries.isEmpty else {
                throw .badInput("\(output) is not empty; export writes a whole config directory into a new or empty one")
            }
        }
        let staging = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).export-\(UUID().uuidString)")
        do {
            try fileManager.createDirectory(at: staging.appendingPathComponent("routes.d"), withIntermediateDirectories: true)
            if let config {
                for name in try fileManager.contentsOfDirectory(atPath: config.url.path) where name != "rewrites.yaml" {
                    let source = config.url.appendingPathComponent(name)
                    if name == "routes.d" {
                        for file in try fileManager.contentsOfDirectory(atPath: source.path) {
                            try fileManager.copyItem(
                                at: source.appendingPathComponent(file), to: staging.appendingPathComponent("routes.d/\(file)"))
                        }
                    } else {
                        try fileManager.copyItem(at: source, to: staging.appendingPathComponent(name))
                    }
                }
            }
            for file in files {
                try Data(file.text.utf8).write(to: staging.appendingPathComponent(file.path), options: .atomic)
            }
        } catch {
            try? fileManager.removeItem(at: staging)
            throw .badInput("cannot write \(staging.path): \(error.localizedDescription)")
        }
        do {
            let written = try ConfigDirectory.load(from: staging.path)
            _ = try Snapshot.build(config: written, admin: AdminState())
        } catch {
            try? fileManager.removeItem(at: staging)
            throw .badInput("the exported directory does not load, so nothing was written:\n\(error)")
        }
        do {
            if fileManager.fileExists(atPath: target.path) { try fileManager.removeItem(at: target) }
            try fileManager.moveItem(at: staging, to: target)
        } catch {
            try? fileManager.removeItem(at: staging)
            throw .badInput("cannot move the export to \(output): \(error.localizedDescription)")
        }
    }

    /// One line saying what was written.
    func summary(_ output: String) -> String {
        let configRules = config.map { " after \($0.rewriteRules.count) config rules" } ?? ""
        return "exported admin version \(admin.version) to \(output): \(admin.rules.count) admin rules\(configRules) in rewrites.yaml, "
            + "\(admin.routes.count) admin routes in \(files.count - 1) route file(s)"
    }
}
