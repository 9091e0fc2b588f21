import Testing

@testable import SwitchboardCore

@Suite("ParsedURL.pathSegments()")
struct PathSegmentsTests {
    @Test(arguments: [
        ("myapp://h", []),
        ("myapp://h/", []),
        ("myapp://h/a/b", ["a", "b"]),
        ("myapp://h/a//b/", ["a", "b"]),
        ("myapp://h//a///b//", ["a", "b"]),
        ("myapp://h/a%2Fb/c", ["a/b", "c"]),
        ("myapp://h/a%2fb", ["a/b"]),
        ("myapp://h/a+b/c%2Bd", ["a+b", "c+d"]),
        ("myapp://h/a%20b", ["a b"]),
        ("myapp://h/%252F", ["%2F"]),
        ("myapp://h/./../a", [".", "..", "a"]),
        ("myapp://h/%E5%95%86%E5%93%81/42", ["商品", "42"]),
        ("myapp://商品/详情/é", ["详情", "é"]),
        ("myapp://h/a;b=c/d:e@f", ["a;b=c", "d:e@f"]),
        ("myapp://h/p?x=/y#/z", ["p"]),
        ("mailto:x@y", ["x@y"]),
        ("urn:isbn:123", ["isbn:123"]),
        ("file:///etc/x", ["etc", "x"]),
        ("https://shop.example.com/product/42/", ["product", "42"]),
    ])
    func splitsThenDecodes(_ input: String, _ segments: [String]) throws {
        #expect(try ParsedURL.parse(input).pathSegments() == segments)
    }

    @Test(arguments: [
        ("myapp://h/a/%FF", 12),
        ("myapp://h/ok/b%C3", 14),
        ("myapp://商品/详情/%C3%28", 14),
        ("myapp://u@h:1/a/%C0%AF?q=%FF#%FF", 16),
        ("x:%FF", 2),
    ])
    func refusesInvalidUTF8AtTheEscape(_ input: String, _ position: Int) throws {
        let url = try ParsedURL.parse(input)
        let error = #expect(throws: URLParseError.self) { try url.pathSegments() }
        #expect(error?.message == "invalid UTF-8 after percent-decoding")
        #expect(error?.position == position)
    }
}
