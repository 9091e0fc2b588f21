import SwitchboardCore
import Testing

@testable import SwitchboardServer

/// The query read on demand against the query parser it stands for
/// (`ParsedURL.queryItems(ofRawQuery:)`): the same parameters, and the same queries refused
/// with the same error.
@Suite("Query parameters read on demand")
struct QueryParametersTests {
    /// Pieces a random query is made of: plain, encoded, `+`, empty, without `=`, malformed,
    /// bytes beyond ASCII raw and encoded (valid and not).
    static let pieces = [
        "url=shopapp%3A%2F%2Fp%2F1", "a=1", "a=2", "b=x+y", "", "c", "=v", "n=", "u%72l=x", "k=%zz", "k=%4", "k=%",
        "caf%C3%A9=1", "x=caf\u{E9}", "x=%C3", "%C3=%A9", "x=%E2%82%AC", "x=%F0%9F", "q=a=b", "e=%00", "p=%2B%26%3D",
    ]

    static func randomQuery(_ generator: inout some RandomNumberGenerator) -> String {
        let count = Int.random(in: 0...5, using: &generator)
        return (0..<count).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined(separator: "&")
    }

    @Test("random queries: the same parameters in order, or the same error")
    func sameAsTheParser() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            let raw = Self.randomQuery(&generator)
            let parsed: Result<[QueryItem], URLParseError> = Result { () throws(URLParseError) in
                try ParsedURL.queryItems(ofRawQuery: raw)
            }
            let read: Result<QueryParameters, URLParseError> = Result { () throws(URLParseError) in
                let query = QueryParameters(unchecked: raw)
                try query.check()
                return query
            }
            switch (parsed, read) {
            case (.success(let items), .success(let query)):
                #expect(Array(query) == items, "\(raw)")
                for name in Set(items.map(\.name)) {
                    #expect(query.values(named: name) == items.filter { $0.name == name }.map(\.value), "\(raw) \(name)")
                    #expect(query.first(named: name) == items.first { $0.name == name }?.value, "\(raw) \(name)")
                }
                #expect(query.first(named: "absent") == nil)
            case (.failure(let expected), .failure(let error)):
                #expect(error.description == expected.description, "\(raw)")
            default:
                Issue.record("\(raw): the parser gave \(parsed), the query \(read)")
            }
        }
    }

    @Test("no query and an empty one have no parameters; a literal encodes what it holds")
    func emptyAndLiteral() throws {
        try QueryParameters(unchecked: "").check()
        #expect(Array(QueryParameters(unchecked: nil)).isEmpty)
        #expect(Array(QueryParameters(unchecked: "")).isEmpty)
        #expect(Array(QueryParameters()).isEmpty)
        let literal: QueryParameters = [QueryItem(name: "a b", value: "x&y=z/é")]
        try literal.check()
        #expect(Array(QueryParameters(unchecked: literal.raw)) == [QueryItem(name: "a b", value: "x&y=z/é")])
    }
}
