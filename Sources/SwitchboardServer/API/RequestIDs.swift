import Atomics
import SwitchboardHTTP

/// The id that ties an answer to its log lines: `X-Request-Id` on every answer of the API, and
/// `request_id` in the access log. A client's own id is kept when it is sane (1 to 128 visible
/// ASCII characters, none of `"` `\` `,` `;`, so that it cannot forge a log line or split a
/// header list); otherwise a new one is made.
///
/// A new id is 15 lowercase hex digits: 6 drawn at random when the server starts, then a
/// 9-digit counter (68 billion ids before it wraps). That costs one atomic add, no system call
/// and no allocation (15 bytes is the most a Swift string keeps inline), on every request that
/// brings no id; ids are unique within a process, and two processes share a prefix once in 16
/// million starts.
package final class RequestIDs: Sendable {
    /// The header that carries the id, both ways.
    package static let header = "X-Request-Id"
    /// The longest id a client may give.
    package static let maxLength = 128

    /// The length of an id made here.
    package static let length = 15
    private static let prefixDigits = 6

    private let prefix: UInt64
    private let counter = ManagedAtomic<UInt64>(0)

    /// - Parameter prefix: the first 6 hex digits of every id made (random by default; only
    ///   its low 24 bits count).
    package init(prefix: UInt64 = .random(in: 0..<(1 << 24))) {
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
        return String(unsafeUninitializedCapacity: Self.length) { buffer in
            Self.writeHex(prefix, digits: Self.prefixDigits, into: buffer, at: 0)
            Self.writeHex(count, digits: Self.length - Self.prefixDigits, into: buffer, at: Self.prefixDigits)
            return Self.length
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
