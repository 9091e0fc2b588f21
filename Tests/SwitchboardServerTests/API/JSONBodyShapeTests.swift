import Testing

@testable import SwitchboardServer

/// The scan that finds a name given twice in one JSON object, or nesting too deep.
@Suite("JSON body shape")
struct JSONBodyShapeTests {
    private func duplicate(_ json: String) -> JSONBodyShape.Duplicate? {
        JSONBodyShape.inspect(Array(json.utf8)).duplicate
    }

    @Test(
        "one name per object, the same name in different objects, and names inside strings pass",
        arguments: [
            #"{"id": "a", "match": "x", "target": "y"}"#,
            #"{"rules": [{"id": "a"}, {"id": "b"}]}"#,
            #"{"a": {"a": {"a": 1}}}"#,
            #"{"id": "\"id\": 1, \"id\"", "match": "{\"id\":[\"id\"]}"}"#,
            #"["id", "id", {"id": 1}]"#,
            #"{"a": 1, "A": 2, "a ": 3}"#,
            #"{}"#,
            #""id""#,
        ])
    func noDuplicate(json: String) {
        #expect(duplicate(json) == nil)
    }

    @Test("a repeated name is found with the members that hold its object")
    func duplicates() {
        #expect(duplicate(#"{"id": "a", "match": "x", "match": "y"}"#) == .init(name: "match", path: []))
        #expect(duplicate(#"{"rules": [{"id": "a"}, {"id": "b", "id": "c"}]}"#) == .init(name: "id", path: ["rules"]))
        #expect(duplicate(#"{"target": {"page": "A", "page": "B"}}"#) == .init(name: "page", path: ["target"]))
        #expect(duplicate(#"{"a": {"b": 1}, "a": 2}"#) == .init(name: "a", path: []))
    }

    @Test("escaped and plain spellings of one name are one name")
    func escapedNames() {
        #expect(duplicate(#"{"id": "a", "\u0069d": "b"}"#) == .init(name: "id", path: []))
        #expect(duplicate(#"{"a\"b": 1, "a\u0022b": 2}"#) == .init(name: #"a"b"#, path: []))
        #expect(duplicate(#"{"a\\": 1, "a": 2}"#) == nil)
    }

    @Test("nesting up to the limit passes; one level more is too deep, in objects and arrays alike")
    func depth() {
        let limit = JSONBodyShape.maximumDepth
        func nested(_ depth: Int, _ open: String, _ close: String) -> [UInt8] {
            Array((String(repeating: open, count: depth) + "1" + String(repeating: close, count: depth)).utf8)
        }
        #expect(!JSONBodyShape.inspect(nested(limit, "[", "]")).isTooDeep)
        #expect(JSONBodyShape.inspect(nested(limit + 1, "[", "]")).isTooDeep)
        #expect(JSONBodyShape.inspect(nested(limit + 1, #"{"a":"#, "}")).isTooDeep)
        let bracketsInAString = #"{"a": ""# + String(repeating: "[", count: limit * 2) + #""}"#
        #expect(!JSONBodyShape.inspect(Array(bracketsInAString.utf8)).isTooDeep)
    }
}
