import Testing

@testable import SwitchboardHTTP

@Suite("Field-name tokens")
struct HTTPTokenTests {
    @Test("the tchar bit masks accept exactly the bytes RFC 9110 §5.6.2 lists")
    func masksMatchTheGrammar() {
        let listed = Set(Array("!#$%&'*+-.^_`|~0123456789".utf8) + Array("abcdefghijklmnopqrstuvwxyz".utf8))
            .union("ABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        for byte in UInt8.min...UInt8.max {
            #expect(HTTPToken.isTokenByte(byte) == listed.contains(byte), "byte \(byte)")
        }
    }

    @Test("a token has at least one byte")
    func emptyIsNoToken() {
        #expect(![UInt8]().withUnsafeBytes(HTTPToken.isToken))
        #expect(Array("Content-Length".utf8).withUnsafeBytes(HTTPToken.isToken))
        #expect(!Array("Content-Length ".utf8).withUnsafeBytes(HTTPToken.isToken))
    }
}
