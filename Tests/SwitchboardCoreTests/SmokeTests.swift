import Testing
@testable import SwitchboardCore

@Test func packageBuilds() {
    #expect(ParsedURL.self == ParsedURL.self)
}
