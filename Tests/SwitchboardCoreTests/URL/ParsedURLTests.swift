import Testing

@testable import SwitchboardCore

@Suite("ParsedURL")
struct ParsedURLTests {
    @Test func describesItselfAsTheInput() throws {
        let text = "MyApp://Product/42?q=1#f"
        let url = try ParsedURL.parse(text)
        #expect(url.description == text)
        #expect("\(url)" == text)
    }

    @Test(arguments: [
        ("http://h/", true), ("HTTPS://h/", true), ("myapp://h/", false), ("httpx://h/", false),
        ("file:///x", false),
    ])
    func knowsWhetherItIsHTTP(_ text: String, _ isHTTP: Bool) throws {
        #expect(try ParsedURL.parse(text).isHTTP == isHTTP)
    }

    @Test func equalityIsOverTheWrittenForm() throws {
        #expect(try ParsedURL.parse("myapp://h/a") == ParsedURL.parse("myapp://h/a"))
        #expect(try ParsedURL.parse("MYAPP://h/a") != ParsedURL.parse("myapp://h/a"))
    }

    @Test func errorDescriptionNamesThePosition() {
        let error = #expect(throws: URLParseError.self) { try ParsedURL.parse("myapp://a b") }
        #expect(error?.description == "space is not allowed in a URL; percent-encode it as %20 (at position 9)")
    }

    @Test func acceptsLongURLs() throws {
        let segment = String(repeating: "segment/", count: 1_000)
        let url = try ParsedURL.parse("myapp://h/" + segment + "?q=" + String(repeating: "v", count: 4_000))
        #expect(try url.pathSegments().count == 1_000)
        #expect(try url.queryItems().first?.value.count == 4_000)
    }
}
