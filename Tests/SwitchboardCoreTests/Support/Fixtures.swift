import Foundation
import Testing

/// Loads JSON fixture files shipped with the test target.
enum Fixtures {
    static func load<Value: Decodable>(_ name: String, as type: Value.Type = Value.self) throws -> Value {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures"))
        return try JSONDecoder().decode(Value.self, from: Data(contentsOf: url))
    }
}
