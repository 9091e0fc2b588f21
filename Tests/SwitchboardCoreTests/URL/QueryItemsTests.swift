import Testing

@testable import SwitchboardCore

@Suite("ParsedURL.queryItems()")
struct QueryItemsTests {
    private static func items(_ pairs: [(String, String)]) -> [QueryItem] {
        pairs.map { QueryItem(name: $0.0, value: $0.1) }
    }

    @Test(
        arguments: [
            ("myapp://h/p", []),
            ("myapp://h/p?", []),
            ("myapp://h/p?&&", []),
            ("myapp://h/p?a=1", [("a", "1")]),
            ("myapp://h/p?q=a+b", [("q", "a b")]),
            ("myapp://h/p?q=a%2Bb", [("q", "a+b")]),
            ("myapp://h/p?q=a%20b%26c%3Dd", [("q", "a b&c=d")]),
            ("myapp://h/p?tag=x&tag=y&a=1&tag=z", [("tag", "x"), ("tag", "y"), ("a", "1"), ("tag", "z")]),
            ("myapp://h/p?a&b=", [("a", ""), ("b", "")]),
            ("myapp://h/p?&a=1&&b=2&", [("a", "1"), ("b", "2")]),
            ("myapp://h/p?a=b=c", [("a", "b=c")]),
            ("myapp://h/p?=v", [("", "v")]),
            ("myapp://h/p?a;b=1", [("a;b", "1")]),
            ("myapp://h/p?my+name=%E5%95%86+%C3%A9", [("my name", "商 é")]),
            ("myapp://h/p?q=é&r=商品", [("q", "é"), ("r", "商品")]),
            ("myapp://h/p?next=/a/b?c=d#frag&x=1", [("next", "/a/b?c=d")]),
            ("myapp://h/p?%00=%7F", [("\u{0}", "\u{7F}")]),
        ] as [(String, [(String, String)])])
    func splitsAndDecodes(_ input: String, _ pairs: [(String, String)]) throws {
        #expect(try ParsedURL.parse(input).queryItems() == Self.items(pairs))
    }

    @Test(arguments: [
        ("myapp://h/p?a=%FF", 14),
        ("myapp://h/p?ok=1&%FF=1", 17),
        ("myapp://商品/p?q=é&b=%C3", 19),
        ("myapp://h/%FF?a=%C3%A9%FF#%FF", 22),
    ])
    func refusesInvalidUTF8AtTheEscape(_ input: String, _ position: Int) throws {
        let url = try ParsedURL.parse(input)
        let error = #expect(throws: URLParseError.self) { try url.queryItems() }
        #expect(error?.message == "invalid UTF-8 after percent-decoding")
        #expect(error?.position == position)
    }

    /// The items of `query` as part of a whole URL, or the error that parse gives: what an
    /// HTTP request's raw query must decode to.
    private static func asPartOfURL(_ query: String) -> Result<[QueryItem], URLParseError> {
        Result { () throws(URLParseError) in
            try ParsedURL(uncheckedString: "?" + query, scheme: "", query: query).queryItems()
        }
    }

    @Test("a raw request query decodes exactly as the query of a URL, errors and their positions included")
    func rawQueryMatchesURLQuery() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["&", "=", "+", "%", "%2", "%20", "%26", "%3D", "%C3%A9", "%FF", "%C3", "%G1", "a", "url", "é", "商", "x"]
        for _ in 0..<5_000 {
            let query = (0..<Int.random(in: 0...12, using: &generator))
                .map { _ in pieces.randomElement(using: &generator)! }.joined()
            let raw = Result { () throws(URLParseError) in try ParsedURL.queryItems(ofRawQuery: query) }
            switch (raw, Self.asPartOfURL(query)) {
            case (.success(let items), .success(let expected)):
                #expect(items == expected, "query \(query)")
            case (.failure(let error), .failure(let expected)):
                #expect(error.message == expected.message && error.position == expected.position, "query \(query)")
            default:
                Issue.record("query \(query): \(raw) against \(Self.asPartOfURL(query))")
            }
        }
    }
}
