import Foundation
import Testing

@testable import SwitchboardCore

/// The route-definition keys are declared once (``RouteDefinitionKey``); the `Codable` path
/// and the fast JSON reader agree on every one of them.
struct RouteDefinitionKeyTests {
    /// A value for each key, as it would appear in a route file.
    static let samples: [RouteDefinitionKey: String] = [
        .id: #""a""#, .pattern: #""/a""#, .patterns: #"["/a", "/b"]"#, .target: #"{"page": "A"}"#,
        .params: #"{"n": "1"}"#, .web: #""https://m.example/a""#, .app: "false", .minAppVersion: #""5.2.0""#,
        .preview: #"{"title": "A"}"#, .open: #"{"ios": "https://m.example/ios"}"#, .examples: #"["app://a"]"#,
    ]

    static func file(_ members: [(RouteDefinitionKey, String)]) -> String {
        let route = members.map { #""\#($0.0.rawValue)": \#($0.1)"# }.joined(separator: ", ")
        return #"{"module": "m", "routes": [{\#(route)}]}"#
    }

    @Test(arguments: RouteDefinitionKey.allCases)
    func eachKeyIsReadAsTheCodablePathReadsItOrLeftToIt(_ key: RouteDefinitionKey) throws {
        let sample = try #require(Self.samples[key], "a sample value for '\(key.rawValue)'")
        var members: [(RouteDefinitionKey, String)] = [(.id, #""a""#)]
        if key != .id { members.append((key, sample)) }
        if key != .pattern && key != .patterns { members.append((.pattern, #""/a""#)) }
        let text = Self.file(members)
        let decoded = try JSONDecoder().decode(RouteFile.self, from: Data(text.utf8))
        if let read = RouteFileJSONReader.read(text) {
            #expect(read == decoded, "\(text)")
        } else {
            #expect([.examples, .preview, .open].contains(key), "the reader gives up on '\(key.rawValue)'")
        }
    }

    @Test(arguments: RouteDefinitionKey.allCases)
    func aRepeatedKeyIsLeftToTheYAMLPath(_ key: RouteDefinitionKey) throws {
        let sample = try #require(Self.samples[key])
        var members: [(RouteDefinitionKey, String)] = [(key, sample), (key, sample)]
        if key != .id { members.append((.id, #""a""#)) }
        if key != .pattern && key != .patterns { members.append((.pattern, #""/a""#)) }
        #expect(RouteFileJSONReader.read(Self.file(members)) == nil)
    }
}
