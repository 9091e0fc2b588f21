import Foundation
import SwitchboardCore
import SwitchboardTestSupport
import Testing

@testable import SwitchboardStore

/// `data_dir/state.json`: atomic, durable persistence of the admin state (design.md §6).
struct FileAdminStoreTests {
    static let sample = AdminState.sample

    /// A state written before targets kept their key order (JSONEncoder, pretty, sorted keys,
    /// `\/` escapes) still loads.
    @Test func readsTheFormerEncoding() throws {
        let directory = try TemporaryDirectory()
        let store = FileAdminStore(directory: directory.path)
        let state = AdminState(
            version: 3, rules: Self.sample.rules,
            routes: [
                AdminRoute(
                    module: "m",
                    definition: RouteDefinition(
                        id: "r", patterns: ["/a/:b", "/c"], target: .object([("k", .string("v/w"))]), params: ["p": "q"]))
            ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(state)
        #expect(String(decoding: data, as: UTF8.self).contains(#"\/"#))
        try data.write(to: URL(fileURLWithPath: store.path))
        #expect(try store.load() == state)
    }

    @Test func saveThenLoadGivesTheSameState() throws {
        let directory = try TemporaryDirectory()
        let store = FileAdminStore(directory: directory.path)
        try store.save(Self.sample)
        let loaded = try store.load()
        #expect(loaded == Self.sample)
        #expect(loaded.routes.first?.definition.target.jsonText == Self.sample.routes.first?.definition.target.jsonText)
        // A second save replaces the first.
        var next = loaded
        next.version += 1
        next.rules.removeFirst()
        try store.save(next)
        #expect(try store.load() == next)
    }

    @Test func absentFileIsTheEmptyState() throws {
        let directory = try TemporaryDirectory()
        #expect(try FileAdminStore(directory: directory.path).load() == AdminState())
        let missing = directory.url.appendingPathComponent("not/created/yet").path
        #expect(try FileAdminStore(directory: missing).load() == AdminState())
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test func saveCreatesTheDirectory() throws {
        let directory = try TemporaryDirectory()
        let store = FileAdminStore(directory: directory.url.appendingPathComponent("data/nested").path)
        try store.save(Self.sample)
        #expect(try store.load() == Self.sample)
    }

    @Test(arguments: [
        "{not json", "", "version: 1\nrules: []\nroutes: []\n", #"{"version": 1, "rules": [], "routes": ["#,
        #"{"version": "one", "rules": [], "routes": []}"#, #"{"version": 1, "rules": [{"id": "x"}], "routes": []}"#,
    ])
    func corruptFileIsReportedAndLeftAlone(text: String) throws {
        let directory = try TemporaryDirectory()
        try directory.write("state.json", text)
        let store = FileAdminStore(directory: directory.path)
        #expect {
            try store.load()
        } throws: { error in
            let message = (error as? AdminStoreError)?.message ?? ""
            return message.contains(store.path) && message.contains("not modified")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.path)) == Data(text.utf8))
        #expect(try directory.contents() == ["state.json"])
    }

    @Test func noTemporaryFilesAreLeftBehind() throws {
        let directory = try TemporaryDirectory()
        let store = FileAdminStore(directory: directory.path)
        for version in 1...3 {
            try store.save(AdminState(version: version))
            #expect(try directory.contents() == ["state.json"])
        }
    }

    @Test func theSnapshotIsOneLineOfJSONPerRecordReadableByTheOwnerOnly() throws {
        let directory = try TemporaryDirectory()
        let store = FileAdminStore(directory: directory.path)
        try store.save(Self.sample)
        let lines = try String(contentsOfFile: store.path, encoding: .utf8).split(separator: "\n")
        let objects = try lines.map { line in
            let fields = line.split(separator: " ", maxSplits: 2)
            #expect(fields.count == 3 && Int(fields[0]) == fields[2].utf8.count && fields[1].count == 8)
            return try #require(try JSONSerialization.jsonObject(with: Data(fields[2].utf8)) as? [String: Any])
        }
        #expect(objects.count == 3)
        #expect(objects[0]["version"] as? Int == 7 && objects[0]["rules"] as? Int == 2 && objects[0]["routes"] as? Int == 3)
        let rules = try #require(objects[1]["rules"] as? [[String: Any]])
        #expect(rules.map { $0["id"] as? String } == ["promo", "chain"])
        #expect(rules.last?["last"] as? Bool == false)
        let routes = try #require(objects[2]["routes"] as? [[String: Any]])
        #expect(routes.first?["module"] as? String == "flash")
        #expect(routes.count == 3 && routes[1]["pattern"] as? String == "/plain")
        let permissions = try FileManager.default.attributesOfItem(atPath: store.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
    }

    /// The state of a running service is what `serve` and `resolve` build their snapshot from.
}
