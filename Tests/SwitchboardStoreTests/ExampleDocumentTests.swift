import SwitchboardCore
import Testing

@testable import SwitchboardStore

/// Examples of admin-pushed rules and routes as stored: what is read back is what was pushed,
/// the context of the request included.
struct ExampleDocumentTests {
    @Test("an example's context (platform, appVersion, device, at) and openWeb are stored and read back")
    func contextRoundTrips() throws {
        let examples = [
            ConfigExample(url: "app://a"),
            ConfigExample(
                url: "app://a", rewritesTo: "app://b", platform: "ios", appVersion: "5.3.0", device: "d-1",
                at: "2026-11-11T01:00:00+08:00"),
            ConfigExample(url: "app://a", at: "2026-11-11T01:00:00Z"),
            ConfigExample(url: "app://a", openWeb: true, appVersion: "5.1.0"),
        ]
        let state = AdminState(version: 1, rules: [RewriteRule(id: "r", match: "^app://a$", target: "app://b", examples: examples)])
        let text = state.fileText
        #expect(text.contains(#"{"url":"app://a","at":"2026-11-11T01:00:00Z"}"#), "\(text)")
        #expect(try AdminState(document: text) == state)
    }
}
