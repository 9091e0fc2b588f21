import Atomics
import SwitchboardHTTP

/// The id that ties an answer to its log lines: `X-Request-Id` on every answer of the API, and
/// `request_id` in the access log. A client's own id is kept when it is sane (1 to 128 visible
/// ASCII characters, none of `"` `\` `,` `;`, so that it cannot forge a log line or split a
/// header list); otherwise a new one is made.
///
/// A new id is 24 lowercase hex digits: 8 drawn at random when the server starts, then a
/// 16-digit counter. That costs one atomic add, no system call and no allocation beyond the
/// string, on every request that brings no id; ids are unique within a process, and two
/// processes share a prefix once in four billion starts.
package final class RequestIDs: Sendable {
    /// The header that carries the id, both ways.
    package static let header = "X-Request-Id"
    /// The longest id a client may give.
    package static let maxLength = 128

    private let prefix: UInt32
    private let counter = ManagedAtomic<UInt64>(0)

    /// - Parameter prefix: the first 8 hex digits of every id made (random by default).
    package init(prefix: UInt32 = .random(in: .min ... .max)) {
        self.prefix = prefix
    }

    /// The request's id: the client's when it is sane, else a new one.
    package func id(for request: HTTPRequest) -> String {
        if let given = request.header(Self.header), Self.isSane(given) { return given }
        return next()
    }

    /// A new id.
    package func next() -> String {
        let count = counter.loadThenWrappingIncrement(ordering: .relaxed)
        return String(unsafeUninitializedCapacity: 24) { buffer in
            Self.writeHex(UInt64(prefix), digits: 8, into: buffer, at: 0)
            Self.writeHex(count, digits: 16, into: buffer, at: 8)
            return 24
        }
    }

    /// Whether a client's id may be kept: 1 to ``maxLength`` visible ASCII characters, none of
    /// `"` `\` `,` `;`.
    package static func isSane(_ id: String) -> Bool {
        let bytes = id.utf8
        guard !bytes.isEmpty, bytes.count <= maxLength else { return false }
        return bytes.allSatisfy { byte in
            (0x21...0x7E).contains(byte) && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
                && byte != UInt8(ascii: ",") && byte != UInt8(ascii: ";")
        }
    }

    private static func writeHex(_ value: UInt64, digits: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        let hex: StaticString = "0123456789abcdef"
        var value = value
        for index in stride(from: start + digits - 1, through: start, by: -1) {
            buffer[index] = hex.utf8Start[Int(value & 0xF)]
            value >>= 4
        }
    }
}
