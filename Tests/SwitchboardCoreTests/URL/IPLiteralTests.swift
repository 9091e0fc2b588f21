import Testing

@testable import SwitchboardCore

@Suite("IPLiteral")
struct IPLiteralTests {
    private static func check(_ text: String, _ validate: (UnsafeBufferPointer<UInt8>, Int, Int) -> Bool) -> Bool {
        Array(text.utf8).withUnsafeBufferPointer { validate($0, 0, $0.count) }
    }

    @Test(arguments: [
        "::", "::1", "1::", "1::2", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7::", "::2:3:4:5:6:7:8",
        "2001:db8::ff00:42:8329", "2001:DB8:0:0:8:800:200C:417A", "fe80::1", "::ffff:192.0.2.1",
        "1:2:3:4:5:6:1.2.3.4", "::1.2.3.4", "0:0:0:0:0:0:0:0", "ABCD:ef01::",
    ])
    func acceptsIPv6(_ text: String) {
        #expect(Self.check(text, IPLiteral.isValidIPv6))
    }

    @Test(arguments: [
        "", ":", ":1", "1:", "1:2", ":::", "1:::2", "::1::", "1::2::3", "1:2:3:4:5:6:7:8:9",
        "1:2:3:4:5:6:7:8::", "1:2:3:4::5:6:7:8", "12345::", "g::", "1:2:3:4:5:6:7:1.2.3.4",
        "::1.2.3", "::1.2.3.4.5", "::1.2.3.256", "::01.2.3.4", "1.2.3.4::", "::1.2.3.4:1",
    ])
    func refusesInvalidIPv6(_ text: String) {
        #expect(!Self.check(text, IPLiteral.isValidIPv6))
    }

    @Test(arguments: [
        ("0.0.0.0", true), ("255.255.255.255", true), ("192.0.2.1", true),
        ("256.0.0.1", false), ("1.2.3", false), ("1.2.3.4.", false), ("01.2.3.4", false),
        ("1..2.3", false), ("1.2.3.1234", false), ("", false),
    ])
    func validatesIPv4(_ text: String, _ valid: Bool) {
        #expect(Self.check(text, IPLiteral.isValidIPv4) == valid)
    }

    @Test(arguments: [
        ("v1.x", true), ("VF.fe80::a+en1", true), ("v1a.a:b!$", true),
        ("v", false), ("v.x", false), ("v1", false), ("v1.", false), ("vg.x", false), ("v1.a/b", false),
        ("1.x", false),
    ])
    func validatesIPvFuture(_ text: String, _ valid: Bool) {
        #expect(Self.check(text, IPLiteral.isValidIPvFuture) == valid)
    }
}
