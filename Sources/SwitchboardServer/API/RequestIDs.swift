import Atomics
import SwitchboardHTTP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The id that ties an answer to its log lines: `X-Request-Id` on every answer of the API, and
/// `request_id` in the access log. A client's own id is kept when it is sane (1 to 128 visible
/// ASCII characters, none of `"` `\` `,` `;`, so that it cannot forge a log line or split a
/// header list); otherwise a new one is made.
///
/// A new id is 15 lowercase hex digits: 6 drawn at random when the server starts, then a
/// 9-digit counter (68 billion ids before it wraps). Each thread counts through a block of
/// ``blockSize`` ids of its own, kept under a pthread key, and takes the next free block from
/// the shared counter when it has used its block up: an id costs no atomic operation shared
/// between the worker threads (one in 65,536), no system call and no allocation (15 bytes is
/// the most a Swift string keeps inline). Ids are unique within a process, and two processes
/// share a prefix once in 16 million starts.
package final class RequestIDs: Sendable {
    /// The header that carries the id, both ways.
    package static let header = HTTPResponse.requestIDHeader
    /// The longest id a client may give.
    package static let maxLength = 128

    /// The length of an id made here.
    package static let length = 15
    private static let prefixDigits = 6
    /// How many ids a thread takes from the shared counter at once.
    package static let blockSize: UInt64 = 1 << 16

    private let prefix: UInt64
    /// The first id of the next block no thread has taken.
    private let unclaimed = ManagedAtomic<UInt64>(0)
    /// The key of each thread's ``ThreadBlock``; `nil` when the process has no key left (every
    /// id then comes from the shared counter).
    private let key: pthread_key_t?

    /// The part of the counter one thread owns: the ids from `next` up to `end`.
    private struct ThreadBlock {
        var next: UInt64
        var end: UInt64
    }

    /// - Parameter prefix: the first 6 hex digits of every id made (random by default; only
    ///   its low 24 bits count).
    package init(prefix: UInt64 = .random(in: 0..<(1 << 24))) {
        self.prefix = prefix
        var key = pthread_key_t()
        self.key = pthread_key_create(&key, threadBlockReleased) == 0 ? key : nil
    }

    deinit {
        // A thread still holding a block keeps its 16 bytes until it ends; the key is unused.
        if let key { pthread_key_delete(key) }
    }

    /// The request's id: the client's when it is sane, else a new one.
    package func id(for request: HTTPRequest) -> String {
        if let given = request.header(Self.header), Self.isSane(given) { return given }
        return next()
    }

    /// A new id.
    package func next() -> String {
        // The 15 digits are the low 60 bits of prefix and count, written two words at a time:
        // 16 digits, of which the first (always 0) is left out.
        let bits = (prefix & 0xFF_FFFF) << 36 | nextCount() & (1 << 36 - 1)
        let digits = (Self.hexDigits(UInt32(truncatingIfNeeded: bits >> 32)), Self.hexDigits(UInt32(truncatingIfNeeded: bits)))
        return withUnsafeBytes(of: digits) { digits in
            String(unsafeUninitializedCapacity: Self.length) { buffer in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(rebasing: digits[1...]))
                return Self.length
            }
        }
    }

    /// The calling thread's next count: from its block while the block lasts, else from a new
    /// block taken from the shared counter.
    private func nextCount() -> UInt64 {
        guard let key else { return unclaimed.loadThenWrappingIncrement(ordering: .relaxed) }
        let block: UnsafeMutablePointer<ThreadBlock>
        if let kept = pthread_getspecific(key) {
            block = kept.assumingMemoryBound(to: ThreadBlock.self)
        } else {
            block = .allocate(capacity: 1)
            block.initialize(to: ThreadBlock(next: 0, end: 0))
            guard pthread_setspecific(key, block) == 0 else {
                block.deallocate()
                return unclaimed.loadThenWrappingIncrement(ordering: .relaxed)
            }
        }
        if block.pointee.next == block.pointee.end {
            let start = unclaimed.loadThenWrappingIncrement(by: Self.blockSize, ordering: .relaxed)
            block.pointee = ThreadBlock(next: start, end: start &+ Self.blockSize)
        }
        defer { block.pointee.next &+= 1 }
        return block.pointee.next
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

    /// The 8 lowercase hex digits of `value`, most significant first in memory: each nibble
    /// spread into a byte of its own, then turned into its digit in all eight bytes at once.
    private static func hexDigits(_ value: UInt32) -> UInt64 {
        var nibbles = UInt64(value)
        nibbles = (nibbles | nibbles << 16) & 0x0000_FFFF_0000_FFFF
        nibbles = (nibbles | nibbles << 8) & 0x00FF_00FF_00FF_00FF
        nibbles = (nibbles | nibbles << 4) & 0x0F0F_0F0F_0F0F_0F0F
        // 1 in each byte whose nibble is 10 or more; such a byte is moved past the 0x27 bytes
        // between `9` + 1 and `a`.
        let letters = ((nibbles &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        let digits = nibbles &+ 0x3030_3030_3030_3030 &+ letters &* 0x27
        return digits.bigEndian
    }
}

/// The key's destructor: a thread that held a block has ended.
private func threadBlockReleased(_ block: UnsafeMutableRawPointer?) {
    block?.deallocate()
}
