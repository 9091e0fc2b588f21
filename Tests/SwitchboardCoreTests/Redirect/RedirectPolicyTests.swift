import Testing

@testable import SwitchboardCore

/// The open-redirect guard: hosts are compared after parsing, never as prefixes.
struct RedirectPolicyTests {
    static let policy = RedirectPolicy(
        allowedHosts: ["trusted.com", "*.cdn.trusted.com", "[::1]"], allowHTTP: false, appSchemes: ["myapp"])

    static let allowed = [
        "https://trusted.com/x",
        "HTTPS://TRUSTED.COM/x",
        "https://trusted.com",
        "https://trusted.com:8443/x?y=1",
        "https://trusted.com/#@evil.com",
        "https://trusted.com/%2F%2Fevil.com",
        "https://a.cdn.trusted.com/",
        "https://a.b.cdn.trusted.com/",
        "https://[::1]/",
        "myapp://product/1",
        "MYAPP://product/1",
    ]

    static let refused = [
        "//evil.com", "///evil.com", "/\\evil.com", "evil.com", "trusted.com/x", "",
        "https://trusted.com@evil.com/", "https://evil.com@trusted.com/", "https://trusted.com:@evil.com/",
        "https://trusted.com%40evil.com/", "https://trusted.com%2F@evil.com/",
        "https:/\\evil.com", "https:\\\\evil.com", "https:\\/evil.com", "https:evil.com", "https:///evil.com",
        "https://trusted.com\\@evil.com", "https://trusted.com\\.evil.com",
        "https://trusted.com.evil.com/", "https://eviltrusted.com/", "https://trusted.co/",
        "https://trusted.com./", "HTTPS://TRUSTED.COM./", "https://a.cdn.trusted.com./",
        "https://cdn.trusted.com/", "https://.cdn.trusted.com/", "https://evil.com/.cdn.trusted.com",
        "https://trusted%2Ecom/", "https://%74rusted.com/", "https://trusted.com%00.evil.com/",
        "https://trusted.com\u{0}.evil.com/", "https://trusted.com\u{0}", "\u{0}https://trusted.com/",
        " https://trusted.com/", "https://trusted.com /", "https://trusted.com\r\nSet-Cookie: x=1",
        "\thttps://trusted.com/", "https://trusted.com\t/",
        "javascript:alert(1)", "JAVASCRIPT:alert(1)", "javascript://trusted.com/%0Aalert(1)",
        "data:text/html,<script>alert(1)</script>", "data:text/html;base64,PHNjcmlwdD4=", "DATA:,x",
        "vbscript:msgbox(1)", "file:///etc/passwd", "ftp://trusted.com/",
        "http://trusted.com/", "HTTP://trusted.com/",
        "https://[::2]/", "https://127.0.0.1/", "https://evil.com/?https://trusted.com/",
        "https://ｔrusted.com/", "https://trusted。com/",
    ]

    @Test("allowed locations", arguments: allowed)
    func allows(location: String) {
        #expect(Self.policy.allows(location))
    }

    @Test("open-redirect bypasses are refused", arguments: refused)
    func refuses(location: String) {
        #expect(!Self.policy.allows(location))
    }

    @Test("http only with allowHTTP; an app scheme only when accepted")
    func schemes() {
        let http = RedirectPolicy(allowedHosts: ["trusted.com"], allowHTTP: true, appSchemes: [])
        #expect(http.allows("http://trusted.com/"))
        #expect(!http.allows("http://evil.com/"))
        #expect(!http.allows("myapp://product/1"))
        #expect(!RedirectPolicy(allowedHosts: [], allowHTTP: true, appSchemes: []).allows("https://trusted.com/"))
    }

    @Test(
        "bad redirect_allow entries are described",
        arguments: [
            "", "*.", "https://trusted.com", "trusted.com/x", "user@trusted.com", "trusted.com:443",
            "*trusted.com", "a.*.com", "trusted.com.", ".trusted.com", "a..b", "trusted .com",
        ])
    func badEntries(entry: String) {
        #expect(RedirectPolicy.entryProblem(entry) != nil)
    }

    @Test("good redirect_allow entries", arguments: ["trusted.com", "*.trusted.com", "localhost", "127.0.0.1", "[::1]"])
    func goodEntries(entry: String) {
        #expect(RedirectPolicy.entryProblem(entry) == nil)
    }
}
