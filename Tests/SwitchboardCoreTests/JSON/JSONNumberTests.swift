import Foundation
import Testing

@testable import SwitchboardCore

/// Numbers in targets and params come back as they were written: whole numbers as integers,
/// and an integer a double cannot hold exactly is refused rather than changed.
struct JSONNumberTests {
    private static func written(_ value: JSONValue) -> String {
        var writer = JSONWriter()
        writer.write(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test func wholeNumbersAreWrittenAsIntegers() {
        #expect(Self.written(.number(1e15)) == "1000000000000000")
        #expect(Self.written(.number(1e16)) == "10000000000000000")
        #expect(Self.written(.number(9_007_199_254_740_992)) == "9007199254740992")
        #expect(Self.written(.number(-42)) == "-42")
        #expect(Self.written(.number(12.5)) == "12.5")
        #expect(Self.written(.number(1e300)) == "1e+300")
    }

    @Test(arguments: ["9007199254740993", "9223372036854775807", "-9007199254740993"])
    func anIntegerADoubleCannotHoldIsRefused(_ literal: String) {
        let text = #"{"module": "m", "routes": [{"id": "a", "pattern": "/a", "target": {"n": \#(literal)}}]}"#
        #expect(RouteFileJSONReader.read(text) == nil, "the fast reader leaves it to the Codable path")
        #expect {
            _ = try JSONDecoder().decode(RouteFile.self, from: Data(text.utf8))
        } throws: { error in
            "\(error)".contains("cannot be kept exactly")
        }
    }

    @Test(arguments: ["9007199254740992", "10000000000000000", "1e16", "0.1", "-3"])
    func anExactNumberIsKept(_ literal: String) throws {
        let text = #"{"module": "m", "routes": [{"id": "a", "pattern": "/a", "target": {"n": \#(literal)}}]}"#
        let decoded = try JSONDecoder().decode(RouteFile.self, from: Data(text.utf8))
        #expect(decoded.routes[0].target == .object([("n", .number(Double(literal)!))]))
        if let read = RouteFileJSONReader.read(text) { #expect(read == decoded) }
    }
}
