import Foundation
import Testing

@testable import SwitchboardCore

/// One case of `Fixtures/url-vectors.json`: an input and either its components or its error.
struct URLVector: Decodable, Sendable, CustomTestStringConvertible {
    /// The expected error: its position (in characters) and a substring of its message.
    struct ExpectedError: Decodable, Sendable {
        let position: Int
        let message: String
    }

    let input: String
    let note: String?
    let scheme: String?
    let userinfo: String?
    let host: String?
    let port: Int?
    let path: String?
    let query: String?
    let fragment: String?
    let error: ExpectedError?

    var testDescription: String { input.debugDescription }

    /// Every vector of the fixture file.
    static func all() throws -> [URLVector] {
        let url = try #require(
            Bundle.module.url(forResource: "url-vectors", withExtension: "json", subdirectory: "Fixtures")
        )
        return try JSONDecoder().decode([URLVector].self, from: Data(contentsOf: url))
    }
}

@Suite("URL vectors (Fixtures/url-vectors.json)")
struct URLVectorTests {
    @Test func fixtureHasEnoughVectorsOfBothKinds() throws {
        let vectors = try URLVector.all()
        #expect(vectors.count >= 60)
        #expect(vectors.filter { $0.error == nil }.count >= 30)
        #expect(vectors.filter { $0.error != nil }.count >= 30)
        #expect(Set(vectors.map(\.input)).count == vectors.count, "duplicate inputs")
    }

    @Test(arguments: try URLVector.all())
    func vector(_ vector: URLVector) throws {
        if let expected = vector.error {
            let error = #expect(throws: URLParseError.self) { try ParsedURL.parse(vector.input) }
            #expect(error?.position == expected.position, "\(error?.message ?? "")")
            #expect(error?.message.contains(expected.message) == true, "got: \(error?.message ?? "no error")")
            return
        }
        let url = try ParsedURL.parse(vector.input)
        #expect(url.string == vector.input)
        #expect(url.scheme == vector.scheme)
        #expect(url.userinfo == vector.userinfo)
        #expect(url.host == vector.host)
        #expect(url.port == vector.port)
        #expect(url.path == vector.path)
        #expect(url.query == vector.query)
        #expect(url.fragment == vector.fragment)
    }
}
