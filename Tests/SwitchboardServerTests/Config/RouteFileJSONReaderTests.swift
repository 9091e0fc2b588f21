import Foundation
import SwitchboardCore
import SwitchboardTestSupport
import Testing
import Yams

@testable import SwitchboardServer

/// The JSON fast path for route files: it decodes exactly what the YAML path decodes, and
/// leaves every error (and anything unusual) to the YAML path, so messages do not change.
@Suite struct RouteFileJSONReaderTests {
    /// What the YAML path made of `text` before the fast path: a syntax check with Yams'
    /// parser, then `YAMLDecoder`.
    static func yamlPath(_ text: String) -> Result<RouteFile, YAMLPathError> {
        do {
            _ = try Parser(yaml: text, resolver: .basic).singleRoot()
            return .success(try YAMLDecoder().decode(RouteFile.self, from: text))
        } catch {
            return .failure(YAMLPathError(message: DecodingErrorDescription.describeConfigError(error)))
        }
    }

    struct YAMLPathError: Error {
        let message: String
    }

    static let validFiles: [String] = [
        #"{"module": "product", "routes": []}"#,
        #"{"module": "product"}"#,
        #"  {"routes": [], "module": "m"}  "#,
        #"{"module":"product","routes":[{"id":"product.detail","pattern":"/product/:id"}]}"#,
        """
        {
          "module": "product",
          "routes": [
            {"id": "a", "pattern": "/a/:id", "target": {"page": "A", "tab": 2, "flags": [true, false, null],
              "nested": {"x": -1.5e3, "y": "", "z": {}}, "yes": "yes", "n": "42"}},
            {"id": "b", "patterns": ["/b", "shopapp://b/:x<int>", "https://shop.example.com/b(/:y)"],
              "params": {"source": "deeplink", "empty": ""}, "target": {"page": "A", "tab": 2}},
            {"id": "c", "pattern": "/c", "web": "https://m.example.com/c", "app": false, "minAppVersion": "5.2.0"},
            {"id": "d\\u00e9\\n\\"q\\"\\/", "pattern": "/d/caf\u{e9}", "target": {"k\\u0041": "\\t"}},
            {"id": "e", "pattern": "/e", "target": {"big": 12345678901234567890, "zero": 0, "neg": -0, "f": 0.25}}
          ]
        }
        """,
        // Repeated targets, next to each other or apart, with different spacing around them,
        // and near misses that share a prefix with an earlier target.
        """
        {"module": "m", "routes": [
          {"id": "a", "pattern": "/a", "target": {"page": "A"}},
          {"id": "b", "pattern": "/b", "target": {"page": "A"} },
          {"id": "c", "pattern": "/c", "target": {"page": "A"}
          , "params": {"k": "v"}},
          {"id": "d", "pattern": "/d", "target": {"page": "AB"}},
          {"id": "e", "pattern": "/e", "target": {"page": "A", "tab": 1}},
          {"id": "f", "pattern": "/f", "target": {"page": "A"}},
          {"id": "g", "pattern": "/g", "target": {"page" : "A"}},
          {"id": "h", "pattern": "/h", "target": {"page": "A", "tab": 1}},
          {"id": "i", "pattern": "/i", "target": {}},
          {"id": "j", "pattern": "/j", "target": {}}
        ]}
        """,
        // The shortest routes there are, many of them (room is reserved for the most a file can hold).
        #"{"module":"m","routes":["# + Array(repeating: #"{"id":"","pattern":""}"#, count: 200).joined(separator: ",") + "]}",
    ]

    @Test(arguments: validFiles)
    func decodesLikeTheYAMLPath(_ text: String) throws {
        let fast = try #require(RouteFileJSONReader.read(text), "the fast path gave up on valid JSON")
        let yaml = try Self.yamlPath(text).get()
        #expect(fast == yaml)
        // Same key order in targets, which `==` on JSONValue checks, and same JSON text.
        #expect(fast.routes.map { $0.target.jsonText } == yaml.routes.map { $0.target.jsonText })
    }

    static let rejectedFiles: [String] = [
        #"{"module": "x", "routes": [{"id": "a", "pattern": "/a", "patern": "/b"}]}"#,
        #"{"module": "x", "routes": [{"id": "a"}]}"#,
        #"{"module": "x", "routes": [{"id": "a", "patterns": []}]}"#,
        #"{"module": "x", "routes": [{"id": "a", "pattern": "/a", "patterns": ["/b"]}]}"#,
        #"{"module": "x", "routes": [{"id": "a", "pattern": "/a", "target": "Page"}]}"#,
        #"{"module": "x", "routes": [{"id": "a", "pattern": "/a", "target": [1]}]}"#,
        #"{"module": "x", "routes": [{"id": "a", "pattern": "/a", "target": 42}]}"#,
        #"{"module": "x", "routes": [{"pattern": "/a"}]}"#,
        #"{"routes": []}"#,
        #"{"module": "x", "rotues": []}"#,
        #"{"module": "x", "routes": [{"id": "a", "pattern": "/a", "params": {"n": 1}}]}"#,
        #"{"module": "x", "routes": [{"id": "a", "pattern": "/a", "app": "no"}]}"#,
        #"{"module": "x", "routes": [{"id": 7, "pattern": "/a"}]}"#,
        #"{"module": "x", "routes": [{"id": "a", "pattern": "/a", "examples": ["shopapp://a"]}]}"#,
        #"{"module": "x", "routes": [{"id": "a", "pattern": "/a"},]}"#,
        #"{"module": "x", "routes": [{"id": "a", "pattern": "/a"}]"#,
        #"{"module": "x"} trailing"#,
        #"{"module": "x", "module": "y"}"#,
        #"{"module": null}"#,
        // A repeated target followed by something that is not JSON.
        #"{"module": "x", "routes": [{"id": "a", "pattern": "/a", "target": {"p": 1}}, {"id": "b", "pattern": "/b", "target": {"p": 1}x}]}"#,
        #"{"module": "x", "routes": [{"id": "a", "pattern": "/a", "target": {"p": 1}}, {"id": "b", "pattern": "/b", "target": {"p": 1"#,
    ]

    /// The reader gives up, and the config directory reports what the YAML path reports.
    @Test(arguments: rejectedFiles)
    func leavesErrorsAndOddCasesToTheYAMLPath(_ text: String) throws {
        #expect(RouteFileJSONReader.read(text) == nil)
        let directory = try TemporaryDirectory()
        try directory.write("routes.d/x.json", text)
        switch Self.yamlPath(text) {
        case .success(let file):
            let config = try ConfigDirectory.load(from: directory.path)
            #expect(config.routeFiles.map(\.file) == [file])
        case .failure(let error):
            let issues = ConfigDirectoryTests.loadIssues(directory)
            #expect(issues.map(\.file) == ["routes.d/x.json"])
            #expect(issues.map(\.message) == [error.message])
        }
    }

    /// A `.json` route file and the same routes in YAML load to the same snapshot.
    @Test func jsonAndYAMLFilesBuildTheSameRoutes() throws {
        let json = try TemporaryDirectory()
        let yaml = try TemporaryDirectory()
        try json.write(
            "routes.d/p.json",
            #"{"module": "p", "routes": [{"id": "p.a", "pattern": "/p/:id", "target": {"page": "P"}, "params": {"s": "d"}}]}"#)
        try yaml.write("routes.d/p.yaml", "module: p\nroutes:\n  - {id: p.a, pattern: /p/:id, target: {page: P}, params: {s: d}}\n")
        let a = try ConfigDirectory.load(from: json.path).routeFiles.map(\.file)
        let b = try ConfigDirectory.load(from: yaml.path).routeFiles.map(\.file)
        #expect(a == b)
    }

    /// Identical targets are shared, not copied per route (memory at 1M routes).
    @Test func identicalTargetsDecodeEqual() throws {
        let routes = (0..<50).map { #"{"id": "r\#($0)", "pattern": "/r\#($0)", "target": {"page": "Same"}}"# }
        let file = try #require(RouteFileJSONReader.read(#"{"module": "m", "routes": [\#(routes.joined(separator: ","))]}"#))
        #expect(file.routes.count == 50)
        #expect(Set(file.routes.map(\.target)).count == 1)
    }

    /// Routes are handed over `chunkSize` at a time, in order, with the module; a file whose
    /// module comes last hands all its routes over at the end.
    @Test func chunksKeepTheOrderOfTheRoutes() throws {
        let routes = (0..<10).map { #"{"id": "r\#($0)", "pattern": "/r\#($0)"}"# }.joined(separator: ", ")
        for (text, sizes) in [
            (#"{"module": "m", "routes": [\#(routes)]}"#, [4, 4, 2]),
            (#"{"routes": [\#(routes)], "module": "m"}"#, [10]),
        ] {
            var chunks: [(module: String, routes: [RouteDefinition])] = []
            let module = text.utf8CString.withUnsafeBytes { bytes in
                RouteFileJSONReader.read(UnsafeRawBufferPointer(rebasing: bytes.dropLast()), chunkSize: 4) { chunks.append(($0, $1)) }
            }
            #expect(module == "m")
            #expect(chunks.map(\.routes.count) == sizes)
            #expect(chunks.allSatisfy { $0.module == "m" })
            #expect(chunks.flatMap(\.routes) == RouteFileJSONReader.read(text)?.routes)
            #expect(chunks.flatMap(\.routes).map(\.id) == (0..<10).map { "r\($0)" })
        }
    }

    @Test("a YAML target's numbers read as YAML reads them, and an integer a double cannot hold is refused")
    func yamlNumbersInATarget() throws {
        let file = "module: m\nroutes:\n  - {id: n, pattern: /n, target: {a: 010, b: 0b101, c: 9007199254740992, d: 1e16}}\n"
        let target = try YAMLDecoder().decode(RouteFile.self, from: file).routes[0].target
        #expect(target == .object([("a", .number(10)), ("b", .string("0b101")), ("c", .number(0x1p53)), ("d", .number(1e16))]))
        let refused = Self.yamlPath("module: m\nroutes:\n  - {id: n, pattern: /n, target: {a: 9007199254740993}}\n")
        guard case .failure(let error) = refused else {
            Issue.record("9007199254740993 was read as a double")
            return
        }
        #expect(error.message.contains("target.a: the integer 9007199254740993 cannot be kept exactly"))
    }
}
