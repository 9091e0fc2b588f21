import SwitchboardHTTP

/// The trace id of a W3C Trace Context `traceparent` header
/// (`00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01`), for the log lines of the
/// request. Parsed as the recommendation says: two lowercase hex digits of version (not `ff`),
/// a 32-digit trace id and a 16-digit parent id, neither all zeros, and two digits of flags;
/// version `00` is exactly that long, a later version may add fields after a `-`. Anything else
/// is ignored, as if the header were absent.
enum TraceParent {
    /// The header's name.
    static let header = "traceparent"

    /// The trace id `request`'s `traceparent` carries, or `nil` when it has none or a malformed one.
    static func traceID(of request: HTTPRequest) -> String? {
        request.header(header).flatMap(traceID(in:))
    }

    /// The trace id of a `traceparent` value, or `nil` when the value is malformed.
    static func traceID(in value: String) -> String? {
        let bytes = Array(value.utf8)
        // version(2) - trace-id(32) - parent-id(16) - flags(2)
        guard bytes.count >= 55, bytes[2] == dash, bytes[35] == dash, bytes[52] == dash else { return nil }
        let version = bytes[0..<2]
        guard isHex(version), version != [0x66, 0x66] else { return nil }
        let isVersionZero = version.elementsEqual([0x30, 0x30])
        guard isVersionZero ? bytes.count == 55 : (bytes.count == 55 || bytes[55] == dash) else { return nil }
        let traceID = bytes[3..<35]
        let parentID = bytes[36..<52]
        guard isHex(traceID), isHex(parentID), isHex(bytes[53..<55]) else { return nil }
        guard traceID.contains(where: { $0 != zero }), parentID.contains(where: { $0 != zero }) else { return nil }
        return String(decoding: traceID, as: UTF8.self)
    }

    private static let dash = UInt8(ascii: "-")
    private static let zero = UInt8(ascii: "0")

    /// Lowercase hex digits only, as the recommendation requires.
    private static func isHex(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
