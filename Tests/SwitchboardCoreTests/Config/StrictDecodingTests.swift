import Foundation
import Testing

@testable import SwitchboardCore

@Suite struct StrictDecodingTests {
    private struct Point: Decodable, Equatable {
        let x: Int
        let y: Int?
        enum CodingKeys: String, CodingKey, CaseIterable { case x, y }
        init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(CodingKeys.self)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            x = try container.decode(Int.self, forKey: .x)
            y = try container.decodeIfPresent(Int.self, forKey: .y)
        }
    }

    private struct Shape: Decodable { let points: [Point] }

    private func decodingError(_ json: String) -> DecodingError? {
        do {
            _ = try JSONDecoder().decode(Shape.self, from: Data(json.utf8))
            return nil
        } catch let error as DecodingError {
            return error
        } catch {
            return nil
        }
    }

    @Test func knownKeysDecode() throws {
        let shape = try JSONDecoder().decode(Shape.self, from: Data(#"{"points":[{"x":1},{"x":2,"y":3}]}"#.utf8))
        #expect(shape.points.map(\.x) == [1, 2])
    }

    @Test func unknownKeyIsNamedWithItsPath() throws {
        let error = try #require(decodingError(#"{"points":[{"x":1},{"x":2,"z":3}]}"#))
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["points", "Index 1", "z"])
        #expect(context.debugDescription == "unknown key 'z' (allowed keys: x, y)")
    }

    @Test func everyUnknownKeyIsListed() throws {
        let error = try #require(decodingError(#"{"points":[{"x":1,"b":0,"a":0}]}"#))
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
        #expect(context.codingPath.last?.stringValue == "a")
        #expect(context.debugDescription.hasPrefix("unknown keys 'a', 'b'"))
    }

    @Test func nonObjectIsATypeMismatch() throws {
        let error = try #require(decodingError(#"{"points":[3]}"#))
        guard case .typeMismatch = error else {
            Issue.record("expected typeMismatch, got \(error)")
            return
        }
    }
}
