import Foundation
import SwitchboardCore
import Yams

#if canImport(Glibc)
    import Glibc
#endif

/// Persists ``AdminState`` in `data_dir/state.json`, durably and atomically: write a temp
/// file, fsync it, rename it over the old one, fsync the directory. A crash at any instant
/// leaves either the old or the new file, never a torn one.
public struct StateStore: Sendable {
    /// The directory holding the state.
    public let directory: String
    /// The state file's path.
    public var path: String { directory + "/state.json" }

    public init(directory: String) {
        self.directory = directory
    }

    /// Why the state could not be read or written.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// Loads the state; an absent file is the empty state.
    /// - Throws: ``Failure`` when the file exists but cannot be read or decoded. A corrupt
    ///   file is never silently discarded: fix or move it away, then start again.
    public func loadFile() throws(Failure) -> AdminState {
        guard FileManager.default.fileExists(atPath: path) else { return AdminState() }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw Failure(message: "cannot read \(path): \(error.localizedDescription)")
        }
        do {
            return try AdminState(document: String(decoding: data, as: UTF8.self))
        } catch {
            throw Failure(
                message: "\(path) is corrupt (\(DecodingErrorDescription.describe(error))); "
                    + "it was not modified. Restore it from a backup or move it away to start with no admin state")
        }
    }

    /// Writes `state` durably; returns only once it is on disk.
    public func save(_ state: AdminState) throws(Failure) {
        // Written by hand rather than with JSONEncoder, which loses (or sorts) the key order
        // of route targets.
        let data = Data(state.fileText.utf8)
        try createDirectory()
        let temporary = directory + "/.state.json.\(getpid()).tmp"
        try writeSynced(data, to: temporary)
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Failure(message: "cannot rename \(temporary) to \(path): \(reason)")
        }
        try syncDirectory()
    }

    private func createDirectory() throws(Failure) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw Failure(message: "cannot create data_dir \(directory): \(error.localizedDescription)")
        }
    }

    private func writeSynced(_ data: Data, to file: String) throws(Failure) {
        let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw Failure(message: "cannot create \(file): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var failure: String?
        data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                offset += written
            }
        }
        if let failure {
            unlink(file)
            throw Failure(message: "cannot write \(file): \(failure)")
        }
        guard fsync(descriptor) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(file)
            throw Failure(message: "cannot fsync \(file): \(reason)")
        }
    }

    private func syncDirectory() throws(Failure) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw Failure(message: "cannot open \(directory) to fsync it: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw Failure(message: "cannot fsync \(directory): \(String(cString: strerror(errno)))")
        }
    }
}

extension AdminState {
    /// Decodes a stored document (the content of `state.json`, or the PostgreSQL row).
    ///
    /// It must be JSON, but it is decoded with Yams (JSON is YAML) because JSONDecoder forgets
    /// the key order of objects, and a route's target is returned in the order it was given.
    init(document: String) throws {
        _ = try JSONSerialization.jsonObject(with: Data(document.utf8))
        self = try YAMLDecoder().decode(AdminState.self, from: document)
    }

    /// The content of `state.json`: JSON with one rule, route or history entry per line, keys
    /// in the order `load` reads them and route targets exactly as given.
    var fileText: String {
        func list(_ items: [JSONValue]) -> String {
            items.isEmpty ? "[]" : "[\n" + items.map { "    " + $0.jsonText }.joined(separator: ",\n") + "\n  ]"
        }
        let history = history.map { entry -> JSONValue in
            var members: [(key: String, value: JSONValue)] = [
                ("version", .number(Double(entry.version))), ("time", .string(entry.time)), ("token", .string(entry.token)),
                ("action", .string(entry.action)), ("ids", .array(entry.ids.map(JSONValue.string))),
            ]
            if let target = entry.rollbackTo { members.append(("rollbackTo", .number(Double(target)))) }
            members.append(("rules", .array(entry.rules.map(\.fileJSON))))
            members.append(("routes", .array(entry.routes.map(\.fileJSON))))
            return .object(members)
        }
        return "{\n  \"version\": \(version),\n  \"rules\": \(list(rules.map(\.fileJSON))),\n  \"routes\": \(list(routes.map(\.fileJSON))),"
            + "\n  \"history\": \(list(history))\n}\n"
    }
}

extension ConfigExample {
    /// The example as JSON, in the shape it is read back from.
    var json: JSONValue {
        guard rewritesTo != nil || routeId != nil || params != nil || matched != nil else { return .string(url) }
        var members: [(key: String, value: JSONValue)] = [("url", .string(url))]
        if let rewritesTo { members.append(("rewritesTo", .string(rewritesTo))) }
        if let routeId { members.append(("routeId", .string(routeId))) }
        if let params { members.append(("params", .object(params.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))) }
        if let matched { members.append(("matched", .bool(matched))) }
        return .object(members)
    }
}

extension RewriteRule {
    /// The rule as stored in `state.json` (and listed by the admin API, plus its source).
    var fileJSON: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("id", .string(id)), ("match", .string(match)), ("target", .string(target)), ("last", .bool(last)),
        ]
        if let when { members.append(("when", when.json)) }
        if let examples { members.append(("examples", .array(examples.map(\.json)))) }
        return .object(members)
    }
}

extension AdminRoute {
    /// The route as stored in `state.json` (the admin API lists the same shape, params always present).
    var fileJSON: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("id", .string(definition.id)), ("module", .string(module))]
        if definition.patterns.count == 1 {
            members.append(("pattern", .string(definition.patterns[0])))
        } else {
            members.append(("patterns", .array(definition.patterns.map(JSONValue.string))))
        }
        members.append(("target", definition.target))
        if !definition.params.isEmpty {
            members.append(("params", .object(definition.params.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
        }
        if let web = definition.web { members.append(("web", .string(web))) }
        if let app = definition.app { members.append(("app", .bool(app))) }
        if let minimum = definition.minAppVersion { members.append(("minAppVersion", .string(minimum))) }
        if let examples = definition.examples { members.append(("examples", .array(examples.map(\.json)))) }
        return .object(members)
    }
}
