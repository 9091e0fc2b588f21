import Testing

@testable import SwitchboardCore

/// Rebuilds each literal mask of ``URLCharacterSet`` from its definition (RFC 3986, or the
/// route pattern syntax).
@Suite("URLCharacterSet")
struct URLCharacterSetTests {
    static let alpha = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    static let digit = "0123456789"
    static let unreserved = alpha + digit + "-._~"
    static let subDelims = "!$&'()*+,;="

    @Test(arguments: [
        (URLCharacterSet.unreserved, unreserved),
        (URLCharacterSet.host, unreserved + subDelims),
        (URLCharacterSet.userinfo, unreserved + subDelims + ":"),
        (URLCharacterSet.path, unreserved + subDelims + ":@/"),
        (URLCharacterSet.query, unreserved + subDelims + ":@/?"),
        (URLCharacterSet.scheme, alpha + digit + "+-."),
        (URLCharacterSet.hexDigit, digit + "ABCDEFabcdef"),
        (URLCharacterSet.patternName, alpha + digit + "_-"),
        (URLCharacterSet.plainPatternSegment, alpha + digit + "_-" + ".~!$&'+,;=@:"),
    ])
    func matchesItsDefinition(_ set: URLCharacterSet, _ members: String) {
        let expected = Set(members.utf8)
        for byte in UInt8.min...UInt8.max {
            #expect(set.contains(byte) == expected.contains(byte), "byte \(byte)")
        }
    }
}
