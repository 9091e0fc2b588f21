import Testing

@testable import SwitchboardCore

/// Params precedence (design.md §3) through both lookups of ``ParamsMerger``: the linear scan for
/// a few params and the dictionary for many must give the same members in the same order.
@Suite struct ParamsMergerTests {
    private func text(_ members: [(name: String, value: JSONValue)]) -> String {
        JSONValue.object(members.map { (key: $0.name, value: $0.value) }).jsonText
    }

    @Test func precedenceAndOrder() {
        let merged = ParamsMerger.merge(
            defaults: [("a", "default"), ("b", "default")],
            query: [QueryItem(name: "b", value: "1"), QueryItem(name: "c", value: "2"), QueryItem(name: "b", value: "3")],
            captures: [("c", "captured"), ("d", "4")])
        #expect(text(merged) == #"{"a":"default","b":["1","3"],"c":"captured","d":"4"}"#)
    }

    @Test("more than the linear-scan limit of inputs: the same answer through the dictionary")
    func manyParams() {
        let padding = (0..<ParamsMerger.linearScanLimit).map { QueryItem(name: "p\($0)", value: "\($0)") }
        let query = [QueryItem(name: "b", value: "1"), QueryItem(name: "c", value: "2")] + padding + [QueryItem(name: "b", value: "3")]
        let merged = ParamsMerger.merge(defaults: [("a", "default"), ("b", "default")], query: query, captures: [("c", "captured")])
        #expect(merged.count == 3 + padding.count)
        #expect(text(Array(merged.prefix(3))) == #"{"a":"default","b":["1","3"],"c":"captured"}"#)
        #expect(merged.dropFirst(3).map(\.name) == padding.map(\.name))
        let few = ParamsMerger.merge(
            defaults: [("a", "default"), ("b", "default")], query: Array(query.prefix(2)) + [query.last!], captures: [("c", "captured")])
        #expect(text(few) == text(Array(merged.prefix(3))))
    }
}
