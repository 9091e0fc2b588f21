import Testing

@testable import SwitchboardCore

/// The router splits and decodes paths with the one percent-decoder of the URL module: its
/// segments are those of ``ParsedURL/pathSegments()``, and the same paths are refused.
struct RouteSegmentsTests {
    @Test(arguments: [
        "/a/b", "//a///b//", "/a%2Fb/c", "/a+b/c%2Bd", "/a+b%20c", "/%252F", "/%E5%95%86%E5%93%81/42", "/详情/é",
        "/a/%FF", "/ok/b%C3", "/%C0%AF",
    ])
    func segmentsAreThoseOfTheURL(_ path: String) throws {
        let url = try ParsedURL.parse("https://shop.example\(path)")
        let expected = try? url.pathSegments()
        let segments = try? RouteSegments.withSegments(host: nil, path: url.path) { $0.map(\.string) }
        #expect(segments == expected, "\(path)")
    }

    @Test(arguments: ["/a/%G1", "/a/%2", "/a/%"])
    func aBadEscapeIsRefused(_ path: String) {
        #expect(throws: URLParseError.self) { try RouteSegments.withSegments(host: nil, path: path) { $0.count } }
    }
}
