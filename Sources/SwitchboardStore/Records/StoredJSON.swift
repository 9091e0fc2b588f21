import Foundation
import Yams

/// Decodes the JSON payloads of stored records.
///
/// JSONDecoder is fast but forgets the key order of objects, and a route's target is returned
/// in the order it was given; Yams keeps it (JSON is YAML) but is many times slower. So a
/// payload is decoded with JSONDecoder (which also checks that it is strict JSON), and again
/// with Yams only when it holds routes.
enum StoredJSON {
    /// Decodes `payload` as `T`; `holdsRoutes` says whether the value decoded by JSONDecoder
    /// must be decoded again with Yams.
    static func decode<T: Decodable>(
        _ type: T.Type, from payload: UnsafeRawBufferPointer, holdsRoutes: (T) -> Bool
    ) throws -> T {
        let data = Data(payload)
        let fast = try JSONDecoder().decode(T.self, from: data)
        guard holdsRoutes(fast) else { return fast }
        return try YAMLDecoder().decode(T.self, from: String(decoding: data, as: UTF8.self))
    }
}
