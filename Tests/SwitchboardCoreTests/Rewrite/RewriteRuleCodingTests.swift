import Foundation
import Testing

@testable import SwitchboardCore

@Suite struct RewriteRuleCodingTests {
    private func decode(_ json: String) throws -> RewriteRule {
        try JSONDecoder().decode(RewriteRule.self, from: Data(json.utf8))
    }

    @Test func lastDefaultsToTrue() throws {
        let rule = try decode(#"{"id":"a","match":"x","target":"app://y"}"#)
        #expect(rule == RewriteRule(id: "a", match: "x", target: "app://y", last: true))
        #expect(try decode(#"{"id":"a","match":"x","target":"y","last":null}"#).last)
        #expect(try !decode(#"{"id":"a","match":"x","target":"y","last":false}"#).last)
    }

    @Test func unknownKeyIsRefusedByName() {
        do {
            _ = try decode(#"{"id":"a","match":"x","target":"y","lsat":false}"#)
            Issue.record("an unknown key must be refused")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.codingPath.last?.stringValue == "lsat")
            #expect(context.debugDescription.contains("'lsat'"))
            #expect(context.debugDescription.contains("id, match, target, last"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func missingOrMistypedKeysAreRefused() {
        #expect(throws: DecodingError.self) { try decode(#"{"id":"a","target":"y"}"#) }
        #expect(throws: DecodingError.self) { try decode(#"{"id":"a","match":1,"target":"y"}"#) }
        #expect(throws: DecodingError.self) { try decode(#"{"id":"a","match":"x","target":"y","last":"no"}"#) }
    }

    @Test func roundTrips() throws {
        let rule = RewriteRule(id: "r", match: "(?:https://)?www.shop.com/search/(.*)", target: "app://search?q=$$1", last: false)
        let data = try JSONEncoder().encode(rule)
        #expect(try JSONDecoder().decode(RewriteRule.self, from: data) == rule)
    }
}
