import PropertyBased
import Testing

@testable import SwitchboardCore

@Suite("URL properties")
struct URLPropertyTests {
    /// Characters that exercise every branch of the scanner: delimiters, forbidden ASCII,
    /// escapes, controls, multi-byte and multi-scalar characters.
    static let interesting: [Character] = Array(
        "aZ09-._~!$&'()*+,;=:@/?#[]%2Fgé商\u{85}\u{0} \t\"<>\\^`{|}\r\ne\u{301}"
    )

    @Test func parseNeverTrapsAndErrorsPointInsideTheInput() async {
        let text = Gen<Character?>.element(of: Self.interesting).map { $0 ?? "a" }.string(of: 0...24)
        await propertyCheck(count: 2_000, input: text) { text in
            for candidate in [text, "myapp://" + text, "http://" + text, "myapp://h/" + text] {
                do throws(URLParseError) {
                    let url = try ParsedURL.parse(candidate)
                    _ = try? url.pathSegments()
                    _ = try? url.queryItems()
                } catch {
                    #expect(error.position >= 0 && error.position <= candidate.count, "\(candidate.debugDescription)")
                }
            }
        }
    }

    @Test func queryValueEncodingRoundTrips() async {
        let text = Gen.unicodeScalar(in: "\u{0}"..."\u{2FFF}").map { Character($0) }.string(of: 0...16)
        await propertyCheck(count: 1_000, input: text) { text in
            let encoded = PercentEncoding.percentEncodedForQueryValue(text)
            #expect(encoded.utf8.allSatisfy { URLCharacterSet.unreserved.contains($0) || $0 == UInt8(ascii: "%") })
            #expect(PercentEncoding.decode(encoded, plusAsSpace: true) == text)
            #expect(PercentEncoding.decode(encoded, plusAsSpace: false) == text)
            let url = try ParsedURL.parse("myapp://h/p?k=" + encoded)
            #expect(try url.queryItems() == [QueryItem(name: "k", value: text)])
        }
    }
}
