import Foundation

/// Finds a member name given twice in one object of a JSON document.
///
/// RFC 8259 leaves a repeated name's meaning to the reader, and readers differ: one takes the
/// first value, another the last. An admin body such as `{"id": "a", "match": "x", "match":
/// "y"}` would then mean one rule to the client that wrote it and another to the server, so
/// the API refuses it (I-JSON, RFC 7493 §2.3, forbids repeated names).
enum JSONDuplicateKeys {
    /// A name given twice, and where: the names of the members holding the object
    /// (`rules` for an object inside the `rules` array), outermost first.
    struct Duplicate: Equatable, Sendable {
        let name: String
        let path: [String]
    }

    /// The first repeated name in `bytes`, which must be valid JSON (decode it first: the
    /// scan does not validate, and on invalid input its answer means nothing).
    static func firstDuplicate(in bytes: [UInt8]) -> Duplicate? {
        var containers: [Container] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"):
                containers.append(.object(names: [], expectsName: true, current: nil))
            case UInt8(ascii: "["):
                containers.append(.array)
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = containers.popLast()
            case UInt8(ascii: ","):
                if case .object(let names, _, _) = containers.last {
                    containers[containers.count - 1] = .object(names: names, expectsName: true, current: nil)
                }
            case UInt8(ascii: "\""):
                let end = endOfString(in: bytes, openingAt: index)
                if case .object(var names, true, _) = containers.last {
                    let name = decodedName(bytes[index...end])
                    guard names.insert(name).inserted else {
                        return Duplicate(name: name, path: containers.dropLast().compactMap(\.currentName))
                    }
                    containers[containers.count - 1] = .object(names: names, expectsName: false, current: name)
                }
                index = end
            default:
                break
            }
            index += 1
        }
        return nil
    }

    private enum Container {
        case object(names: Set<String>, expectsName: Bool, current: String?)
        case array

        var currentName: String? {
            if case .object(_, _, let current) = self { return current }
            return nil
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
