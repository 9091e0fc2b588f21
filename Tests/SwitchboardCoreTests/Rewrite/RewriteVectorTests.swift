import Foundation
import Testing

@testable import SwitchboardCore

/// One case of `Fixtures/rewrite-vectors.json`.
struct RewriteVector: Decodable, Sendable, CustomTestStringConvertible {
    struct Input: Decodable, Sendable {
        let string: String
        let scheme: String
        let userinfo: String?
        let host: String?
        let port: Int?
        let path: String
        let query: String?
        let fragment: String?

        var url: ParsedURL {
            ParsedURL(
                uncheckedString: string, scheme: scheme, userinfo: userinfo, host: host, port: port,
                path: path, query: query, fragment: fragment)
        }
    }

    struct Expect: Decodable, Sendable {
        let url: String
        let fired: [String]
        let errors: [Int]
        let limitHits: [Int]
    }

    struct ExpectedIssue: Decodable, Sendable {
        let index: Int
        let field: String
        let code: String
        let offset: Int?
        let message: String?
    }

    let name: String
    let rules: [RewriteRule]
    let input: Input?
    let expect: Expect?
    let expectInvalid: [ExpectedIssue]?

    var testDescription: String { name }

    static let all: [RewriteVector] = {
        struct File: Decodable { let cases: [RewriteVector] }
        guard let url = Bundle.module.url(forResource: "rewrite-vectors", withExtension: "json", subdirectory: "Fixtures"),
            let data = try? Data(contentsOf: url),
            let file = try? JSONDecoder().decode(File.self, from: data)
        else { return [] }
        return file.cases
    }()
}

@Suite struct RewriteVectorTests {
    @Test func fixtureLoads() {
        #expect(RewriteVector.all.count >= 40)
        #expect(RewriteVector.all.contains { $0.expectInvalid != nil })
    }

    @Test(arguments: RewriteVector.all, [true, false])
    func vector(_ vector: RewriteVector, usesPrefilter: Bool) throws {
        let engine: RewriteEngine
        do {
            engine = try RewriteEngine(rules: vector.rules, options: .default, usesPrefilter: usesPrefilter)
        } catch {
            let expected = try #require(vector.expectInvalid, "unexpected validation error: \(error)")
            #expect(error.issues.count == expected.count, "\(error)")
            for (issue, want) in zip(error.issues, expected) {
                #expect(issue.ruleIndex == want.index)
                #expect(issue.ruleID == vector.rules[want.index].id)
                #expect(issue.field.rawValue == want.field)
                #expect(issue.code.description == want.code)
                if let offset = want.offset { #expect(issue.offset == offset, "\(issue)") }
                if let message = want.message { #expect(issue.message.contains(message), "\(issue)") }
            }
            return
        }
        #expect(vector.expectInvalid == nil, "the rules were expected to be refused")
        let input = try #require(vector.input)
        let expect = try #require(vector.expect)
        let outcome = engine.rewrite(input.url)
        #expect(outcome.url.string == expect.url, "errors: \(outcome.errors)")
        #expect(outcome.firedRuleIDs == expect.fired)
        #expect(outcome.errors.map(\.ruleIndex) == expect.errors, "\(outcome.errors)")
        #expect(outcome.limitHits == expect.limitHits)
        #expect(outcome.didRewrite == !expect.fired.isEmpty)
        #expect(outcome.firedRuleIndices == outcome.firedRuleIDs.compactMap { id in vector.rules.firstIndex { $0.id == id } })
    }

    /// The fixture spells inputs out as components; they must be what the parser produces.
    @Test(arguments: RewriteVector.all.filter { $0.input != nil })
    func fixtureInputsAgreeWithTheParser(_ vector: RewriteVector) throws {
        let input = try #require(vector.input)
        #expect(try ParsedURL.parse(input.string) == input.url)
    }
}
