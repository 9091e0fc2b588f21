import Foundation
import SwitchboardCore

/// A whole admin state as a sequence of ``StoredRecord``s: what the file store's
/// `state.json` holds. A header (`format`, `version` and counts), then the rules, then the
/// routes, then one record per history entry, oldest first.
///
/// Records rather than one document, so that the rules (the bulk of a large state) are
/// decoded with JSONDecoder, and only the records holding routes with Yams (``StoredJSON``).
package enum AdminStateSnapshot {
    /// The `format` of the header.
    static let format = "switchboard-admin-state-snapshot-1"

    /// Why a snapshot could not be read.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package let description: String
    }

    /// The framed records of `state`.
    package static func bytes(of state: AdminState) -> [UInt8] {
        let header = JSONValue.object([
            ("format", .string(format)), ("version", .number(Double(state.version))),
            ("rules", .number(Double(state.rules.count))), ("routes", .number(Double(state.routes.count))),
            ("history", .number(Double(state.history.count))),
        ])
        var bytes = StoredRecord.frame(header.jsonText)
        bytes += StoredRecord.frame(JSONValue.object([("rules", .array(state.rules.map(\.fileJSON)))]).jsonText)
        bytes += StoredRecord.frame(JSONValue.object([("routes", .array(state.routes.map(\.fileJSON)))]).jsonText)
        for entry in state.history { bytes += StoredRecord.frame(entry.json.jsonText) }
        return bytes
    }

    /// Whether `bytes` start like a snapshot (rather than like a JSON state document).
    package static func looksLikeSnapshot(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first else { return false }
        return (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
    }

    /// Decodes a snapshot. Every record must be whole and valid: a snapshot is replaced
    /// atomically, so a bad one was damaged after it was written.
    package static func state(from bytes: UnsafeRawBufferPointer) throws(Failure) -> AdminState {
        let (payloads, end) = StoredRecord.scan(bytes)
        guard end == bytes.count else {
            throw Failure(description: "the record at byte \(end) is damaged (wrong length or checksum)")
        }
        guard payloads.count >= 3 else { throw Failure(description: "it has \(payloads.count) records, not at least 3") }
        func slice(_ index: Int) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[payloads[index]]) }
        do {
            let header = try JSONDecoder().decode(Header.self, from: Data(slice(0)))
            guard header.format == format else { throw Failure(description: "its format is '\(header.format)', not '\(format)'") }
            let rules = try StoredJSON.decode(Rules.self, from: slice(1)) { _ in false }.rules
            let routes = try StoredJSON.decode(Routes.self, from: slice(2)) { !$0.routes.isEmpty }.routes
            var history: [AdminHistoryEntry] = []
            history.reserveCapacity(payloads.count - 3)
            for index in 3..<payloads.count {
                history.append(try StoredJSON.decode(AdminHistoryEntry.self, from: slice(index)) { !$0.routesChange.isEmpty })
            }
            guard rules.count == header.rules, routes.count == header.routes, history.count == header.history else {
                throw Failure(description: "its counts do not match its header")
            }
            return AdminState(version: header.version, rules: rules, routes: routes, history: history)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: DecodingErrorDescription.describe(error))
        }
    }

    private struct Header: Decodable {
        var format: String
        var version: Int
        var rules: Int
        var routes: Int
        var history: Int
    }

    private struct Rules: Decodable { var rules: [RewriteRule] }

    private struct Routes: Decodable { var routes: [AdminRoute] }
}
