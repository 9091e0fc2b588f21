import Foundation

/// What a request body's JSON must not do, found in one scan of its bytes: nest deeper than
/// ``maximumDepth``, or give a member name twice in one object.
///
/// - Depth: the admin state is stored as JSON with the body's values a few levels down, and
///   read back at start by a decoder that refuses documents nested more than 512 levels. A
///   route target nested just under that would be acknowledged, then stop the next start.
/// - Names: RFC 8259 leaves a repeated name's meaning to the reader, and readers differ: one
///   takes the first value, another the last. An admin body such as `{"id": "a", "match": "x",
///   "match": "y"}` would then mean one rule to the client that wrote it and another to the
///   server (I-JSON, RFC 7493 §2.3, forbids repeated names).
enum JSONBodyShape {
    /// The deepest nesting of objects and arrays a body may have; far more than any rule,
    /// route or target needs.
    static let maximumDepth = 64

    /// A name given twice, and where: the names of the members holding the object
    /// (`rules` for an object inside the `rules` array), outermost first.
    struct Duplicate: Equatable, Sendable {
        let name: String
        let path: [String]
    }

    /// What the scan found.
    struct Findings: Equatable, Sendable {
        /// Whether objects and arrays nest deeper than ``maximumDepth`` (the scan stops there).
        var isTooDeep = false
        /// The first repeated name; meaningful only for valid JSON (the scan does not
        /// validate: decode the body as well).
        var duplicate: Duplicate?
    }

    /// Scans `bytes` once.
    static func inspect(_ bytes: [UInt8]) -> Findings {
        var findings = Findings()
        var containers: [Container] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard containers.count < maximumDepth else {
                    findings.isTooDeep = true
                    return findings
                }
                containers.append(Container(isObject: byte == UInt8(ascii: "{")))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = containers.popLast()
            case UInt8(ascii: ","):
                if let top = containers.indices.last, containers[top].isObject {
                    containers[top].expectsName = true
                    containers[top].current = nil
                }
            case UInt8(ascii: "\""):
                let end = endOfString(in: bytes, openingAt: index)
                if let top = containers.indices.last, containers[top].expectsName {
                    let name = decodedName(bytes[index...end])
                    // Mutated in place: names copied out and put back would copy the whole set on
                    // every insert, quadratic in the members of one object.
                    if !containers[top].names.insert(name).inserted, findings.duplicate == nil {
                        findings.duplicate = Duplicate(name: name, path: containers.dropLast().compactMap(\.current))
                    }
                    containers[top].expectsName = false
                    containers[top].current = name
                }
                index = end
            default:
                break
            }
            index += 1
        }
        return findings
    }

    /// An object or array the scan is inside.
    private struct Container {
        let isObject: Bool
        /// The names given so far (objects only).
        var names: Set<String> = []
        /// Whether the next string is a member name (never in an array).
        var expectsName: Bool
        /// The name of the member whose value is being scanned (objects only).
        var current: String?

        init(isObject: Bool) {
            self.isObject = isObject
            expectsName = isObject
        }
    }

    /// The index of the quote that closes the string opening at `start`.
    private static func endOfString(in bytes: [UInt8], openingAt start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index
            default: index += 1
            }
        }
        return bytes.count - 1
    }

    /// A quoted name as text, its escapes decoded (`"\u0061"` and `"a"` are one name).
    private static func decodedName(_ quoted: ArraySlice<UInt8>) -> String {
        let inner = quoted.dropFirst().dropLast()
        guard inner.contains(UInt8(ascii: "\\")) else { return String(decoding: inner, as: UTF8.self) }
        return (try? JSONDecoder().decode(String.self, from: Data(quoted))) ?? String(decoding: inner, as: UTF8.self)
    }
}
