import Foundation
import Synchronization

/// Assembles one request from libmicrohttpd's callbacks and enforces the URL and body limits
/// (design.md §7). The policy lives here; `MicroHTTPDaemon.swift` only moves bytes.
///
/// One instance per request. libmicrohttpd calls back for a connection on one thread at a
/// time, so an instance is never used concurrently and needs no lock.
final class HTTPRequestAssembler {
    /// The request target as the URI log callback saw it.
    enum RawTarget {
        /// The target, raw, valid UTF-8: up to its first `?`, and what follows that `?`
        /// (`nil` when there is none).
        case text(path: String, query: String?)
        /// The request line had no target.
        case missing
        /// The target's bytes are not UTF-8 (request targets are ASCII by RFC 9112 §3.2).
        case notUTF8

        /// The target whose bytes are `bytes`, split at its first `?`. Each part becomes one
        /// string made straight from the bytes, not a string of the whole target copied
        /// again in two. An ASCII `?` is never part of a longer UTF-8 sequence, so the whole
        /// is valid UTF-8 exactly when both parts are.
        init(bytes target: UnsafeBufferPointer<UInt8>) {
            let originForm = Self.originFormStart(of: target)
            let bytes = UnsafeBufferPointer(rebasing: target[originForm...])
            let mark = bytes.firstIndex(of: UInt8(ascii: "?"))
            let pathBytes = UnsafeBufferPointer(rebasing: bytes[..<(mark ?? bytes.endIndex)])
            // The absolute form `http://host` or `http://host?q` names the root.
            guard let path = originForm > 0 && pathBytes.isEmpty ? "/" : Self.text(pathBytes) else {
                self = .notUTF8
                return
            }
            guard let mark else {
                self = .text(path: path, query: nil)
                return
            }
            guard let query = Self.text(UnsafeBufferPointer(rebasing: bytes[(mark + 1)...])) else {
                self = .notUTF8
                return
            }
            self = .text(path: path, query: query)
        }

        /// Where the origin form (`/path?query`) starts in a target: 0, or past the scheme and
        /// authority of an absolute-form target (`http://host:port/path?query`), which a server
        /// must accept (RFC 9112 §3.2.2).
        private static func originFormStart(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
            guard let first = bytes.first, first | 0x20 == UInt8(ascii: "h") else { return 0 }
            for scheme in ["http://", "https://"] where bytes.count >= scheme.utf8.count {
                // The scheme in any case (ASCII letters only: `| 0x20` lowercases them).
                let matches = zip(bytes, scheme.utf8).allSatisfy { byte, expected in
                    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 == expected : byte == expected
                }
                guard matches else { continue }
                let authority = scheme.utf8.count
                let rest = bytes[authority...]
                return rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? bytes.count
            }
            return 0
        }

        /// `bytes` as a string, or `nil` when they are not UTF-8. Targets are ASCII (RFC 9112
        /// §3.2), and ASCII needs no validation: the standard library's validating initialiser
        /// is generic and looks its type metadata up on every call.
        private static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
            if isASCII(bytes) { return String(decoding: bytes, as: UTF8.self) }
            return String(validating: bytes, as: UTF8.self)
        }

        /// Whether every byte is below 0x80.
        private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            !HTTPRequestAssembler.containsByte(
                in: UnsafeRawBufferPointer(bytes), word: { $0 & 0x8080_8080_8080_8080 != 0 }, byte: { $0 >= 0x80 })
        }
    }

    /// Limits copied from the configuration.
    struct Limits: Sendable {
        var maxURLLength: Int
        var maxBodySize: Int
        var maxDiscardedBodySize: Int
    }

    /// What to do with bytes of the body that just arrived.
    enum BodyDecision: Equatable {
        /// Append them to ``body``.
        case store
        /// Consume and forget them (the body is over the limit; a 413 follows).
        case discard
        /// Stop reading: close the connection without an answer.
        case dropConnection
    }

    /// Why the fields of a head cannot be trusted to frame the request: libmicrohttpd may have
    /// found a different body length from the one the client or a proxy meant, and the bytes
    /// after the head would then run as another request (request smuggling).
    enum UntrustedHead: Equatable {
        /// A field value continued on the next line (obs-fold, RFC 9112 §5.2).
        case obsFold
        /// A field name that is not a token, e.g. whitespace before the colon (RFC 9112 §5.1).
        case nameNotToken
        /// A NUL byte inside `Content-Length` or `Transfer-Encoding`, where libmicrohttpd
        /// ends the value.
        case nulInFramingField

        /// The refusal's message.
        var message: String {
            switch self {
            case .obsFold: "a header field value is folded onto the next line (obs-fold); send it on one line"
            case .nameNotToken:
                "a header field name contains whitespace or a character not allowed in a token "
                    + "(no space before the colon)"
            case .nulInFramingField: "Content-Length or Transfer-Encoding contains a NUL byte"
            }
        }
    }

    private enum Phase {
        case awaitingHeaders
        case receivingBody
        case discardingBody(discarded: Int)
        case finished
    }

    let target: RawTarget
    let limits: Limits
    /// Room made for the fields at the first one: an app's HTTP client sends about ten fields
    /// of about 450 bytes, and a buffer grown from empty is copied each time its capacity
    /// doubles on the way there.
    static let expectedFieldCount = 16
    static let expectedFieldBytes = 512

    // The properties the daemon sets once per header field are exempt from Swift's dynamic
    // exclusivity checks (a thread-local lookup on every access; measured at 13 % of the
    // field collection's time with nine fields). That is sound here: one request's callbacks
    // run one at a time on one thread, and none of these accesses overlaps another.

    /// Header fields in arrival order (filled by the daemon before ``headersComplete()``).
    @exclusivity(unchecked) private(set) var fields = HTTPHeaderFields()
    /// The body received so far (appended to by the daemon after ``acceptBody(count:)``).
    var body: [UInt8] = []
    /// The answer of a request handled off the MHD thread, published by that thread before
    /// it resumes the connection (see `MicroHTTPDaemonContext`).
    let deferredResponse = Mutex<HTTPResponse?>(nil)
    /// The address just past the target as the URI log callback saw it (a C string), to tell
    /// a NUL byte inside the target from its end.
    var rawTargetEnd: UInt?
    /// The connection the request arrives on (its admission and deadline), when known.
    let connection: ConnectionRegistry.Connection?
    /// Set by the daemon while it collects the fields when their framing cannot be trusted;
    /// ``headersComplete(isHTTP11:isHTTP10:targetIsWhole:)`` then refuses the request.
    @exclusivity(unchecked) var untrustedHead: UntrustedHead?
    /// Where the daemon expects the next field's name, to tell a line ending from a NUL byte
    /// in a framing field's value; `nil` when it expects nothing in particular.
    @exclusivity(unchecked) var nextFieldAddress: UInt?
    private var phase = Phase.awaitingHeaders

    init(target: RawTarget, limits: Limits, connection: ConnectionRegistry.Connection? = nil) {
        self.target = target
        self.limits = limits
        self.connection = connection
    }

    /// Adds a header field as received (the daemon calls it once per field, in order).
    func addField(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        if fields.count == 0 { fields.reserveCapacity(bytes: Self.expectedFieldBytes, fields: Self.expectedFieldCount) }
        fields.append(name: name, value: value)
    }

    /// Whether the first call for this request has been handled.
    var hasStarted: Bool {
        if case .awaitingHeaders = phase { return false }
        return true
    }

    /// Checks the target, `Host`, the body's framing and its announced size once the headers
    /// are in.
    ///
    /// - Parameters:
    ///   - isHTTP11: the request line said `HTTP/1.1` (which requires `Host`,
    ///     RFC 9112 §3.2).
    ///   - isHTTP10: the request line said `HTTP/1.0` (which has no `Transfer-Encoding`,
    ///     RFC 9112 §6.1).
    ///   - targetIsWhole: the target as a C string spans the whole target of the request
    ///     line; `false` when a NUL byte cut it short.
    /// - Returns: a refusal to send at once (the connection is then closed), or `nil`
    ///   to go on reading the body.
    func headersComplete(isHTTP11: Bool, isHTTP10: Bool = false, targetIsWhole: Bool = true) -> HTTPRefusal? {
        phase = .finished
        guard targetIsWhole else {
            return HTTPRefusal(
                status: 400, code: "bad_request",
                message: "the request target contains a NUL byte; percent-encode it")
        }
        if let untrustedHead {
            return HTTPRefusal(status: 400, code: "bad_request", message: untrustedHead.message)
        }
        let targetLength: Int
        switch target {
        case .missing:
            return HTTPRefusal(status: 400, code: "bad_request", message: "the request line has no request target")
        case .notUTF8:
            return HTTPRefusal(status: 400, code: "bad_request", message: "the request target is not ASCII/UTF-8 text")
        case .text(let path, let query):
            targetLength = path.utf8.count + (query.map { $0.utf8.count + 1 } ?? 0)
            if targetLength > limits.maxURLLength {
                return HTTPRefusal(
                    status: 414, code: "url_too_long",
                    message:
                        "the request target is \(targetLength) bytes long; the limit is \(limits.maxURLLength) bytes")
            }
            // libmicrohttpd (not strict) lets spaces into the target: "GET /a b HTTP/1.1".
            if Self.containsSpaceOrControl(path) || query.map(Self.containsSpaceOrControl) ?? false {
                return HTTPRefusal(
                    status: 400, code: "bad_request",
                    message: "the request target contains a space or a control character; percent-encode it")
            }
        }
        let framing = FramingFields(fields)
        if isHTTP11, !framing.hasHost {
            return HTTPRefusal(status: 400, code: "bad_request", message: "an HTTP/1.1 request needs a Host header")
        }
        // Most requests (every GET) have neither field: the full checks only run when needed.
        guard framing.hasContentLength || framing.hasTransferEncoding else {
            phase = .receivingBody
            return nil
        }
        if let refusal = framingRefusal(isHTTP10: isHTTP10) { return refusal }
        if let announced = contentLength, announced > limits.maxBodySize {
            return HTTPRefusal(
                status: 413, code: "body_too_large",
                message:
                    "the request body is \(announced) bytes (Content-Length); the limit is \(limits.maxBodySize) bytes")
        }
        if let announced = contentLength {
            body.reserveCapacity(min(announced, 64 * 1024))
        }
        phase = .receivingBody
        return nil
    }

    /// Which of the fields that decide framing a request has, found in one pass.
    private struct FramingFields {
        var hasHost = false
        var hasContentLength = false
        var hasTransferEncoding = false

        init(_ fields: HTTPHeaderFields) {
            fields.forEach { name, _ in
                // The names differ in length, so the length picks the one comparison to make.
                switch name.count {
                case 4: hasHost = hasHost || HTTPHeaderFields.name(name, is: "Host")
                case 14: hasContentLength = hasContentLength || HTTPHeaderFields.name(name, is: "Content-Length")
                case 17: hasTransferEncoding = hasTransferEncoding || HTTPHeaderFields.name(name, is: "Transfer-Encoding")
                default: break
                }
                return true
            }
        }
    }

    /// Whether `text` has a byte a request target must not have: a space, a control or DEL.
    /// Scanned over the contiguous UTF-8 storage eight bytes at a time when the string has
    /// one: every request's target goes through here.
    static func containsSpaceOrControl(_ text: String) -> Bool {
        func forbidden(_ byte: UInt8) -> Bool { byte <= 0x20 || byte == 0x7F }
        return text.utf8.withContiguousStorageIfAvailable { bytes in
            containsByte(in: UnsafeRawBufferPointer(bytes), word: hasSpaceOrControl, byte: forbidden)
        } ?? text.utf8.contains(where: forbidden)
    }

    /// Whether some byte of `bytes` passes `byte`: eight bytes at a time by `word`, which is
    /// true of a word exactly when one of its bytes passes `byte`, then the rest one by one.
    /// Inlined, so that both tests are folded into the loop of each caller.
    @inline(__always)
    private static func containsByte(
        in bytes: UnsafeRawBufferPointer, word: (UInt64) -> Bool, byte: (UInt8) -> Bool
    ) -> Bool {
        var offset = 0
        while offset + 8 <= bytes.count {
            if word(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) { return true }
            offset += 8
        }
        return bytes[offset...].contains(where: byte)
    }

    /// Whether one of the eight bytes of `word` is at most 0x20 or is 0x7F. The classic
    /// "has a byte below n" test: a byte under 0x21 borrows into its top bit, and bytes of
    /// 0x80 and above (UTF-8) are masked out by `~word`; a false report can only come from a
    /// borrow out of a byte that was itself reported.
    private static func hasSpaceOrControl(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let below = (word &- ones &* 0x21) & ~word & highs
        let delete = word ^ (ones &* 0x7F)
        let isDelete = (delete &- ones) & ~delete & highs
        return (below | isDelete) != 0
    }

    /// Decides what to do with `count` more body bytes.
    func acceptBody(count: Int) -> BodyDecision {
        switch phase {
        case .receivingBody:
            if body.count + count <= limits.maxBodySize { return .store }
            body = []
            phase = .discardingBody(discarded: count)
            return count <= limits.maxDiscardedBodySize ? .discard : .dropConnection
        case .discardingBody(let discarded):
            let total = discarded + count
            phase = .discardingBody(discarded: total)
            return total <= limits.maxDiscardedBodySize ? .discard : .dropConnection
        case .awaitingHeaders, .finished:
            return .dropConnection
        }
    }

    /// The whole request has arrived: either the request for the handler, or the refusal
    /// to send (then the connection is closed).
    func finish(method: String, remoteAddress: String?) -> Result<HTTPRequest, HTTPRefusal> {
        defer { phase = .finished }
        switch phase {
        case .discardingBody:
            return .failure(
                HTTPRefusal(
                    status: 413, code: "body_too_large",
                    message: "the request body exceeds the limit of \(limits.maxBodySize) bytes"))
        case .awaitingHeaders, .finished:
            return .failure(HTTPRefusal(status: 400, code: "bad_request", message: "the request is incomplete"))
        case .receivingBody:
            guard case .text(let path, let query) = target else {
                return .failure(HTTPRefusal(status: 400, code: "bad_request", message: "the request target is invalid"))
            }
            return .success(
                HTTPRequest(
                    method: method, path: path, query: query, fields: fields, body: body,
                    remoteAddress: remoteAddress))
        }
    }

    /// Whether the request announces a body (`Content-Length` above 0, or any
    /// `Transfer-Encoding`): an answer sent before it is read must close in stages.
    var announcesBody: Bool {
        if fields.contains(named: "Transfer-Encoding") { return true }
        return (contentLength ?? 0) > 0
    }

    /// Framing libmicrohttpd 0.9.75 accepts but gets wrong (RFC 9112 §6): it lets
    /// `Transfer-Encoding` win over `Content-Length` and runs the bytes after the chunked body
    /// as a next request (request smuggling), reads a body of any other coding until the
    /// connection closes, and takes the first of several `Content-Length` fields. An HTTP/1.0
    /// request has no transfer codings (RFC 9112 §6.1: its framing is faulty).
    private func framingRefusal(isHTTP10: Bool) -> HTTPRefusal? {
        let codings = fields.all(named: "Transfer-Encoding")
        let lengths = fields.all(named: "Content-Length")
        if !codings.isEmpty, !lengths.isEmpty {
            return HTTPRefusal(
                status: 400, code: "bad_request",
                message: "the request has both Content-Length and Transfer-Encoding; send one of them")
        }
        if isHTTP10, !codings.isEmpty {
            return HTTPRefusal(
                status: 400, code: "bad_request",
                message: "an HTTP/1.0 request cannot use Transfer-Encoding; send Content-Length")
        }
        // libmicrohttpd has refused most malformed values itself; the digits are checked here
        // so that no value it reads differently from a proxy goes through.
        if let malformed = lengths.first(where: { !Self.isDigits($0) }) {
            return HTTPRefusal(
                status: 400, code: "bad_request",
                message: "Content-Length \"\(malformed)\" is not a decimal number")
        }
        // libmicrohttpd decodes chunks only when the one field's value is `chunked` exactly (any
        // case, nothing around it, not even a trailing space); any other value it would read
        // until the connection closes.
        if !codings.isEmpty, codings.count != 1 || codings[0].lowercased() != "chunked" {
            return HTTPRefusal(
                status: 501, code: "not_implemented",
                message: "the only transfer coding accepted is a single chunked")
        }
        if lengths.count > 1, Set(lengths).count > 1 {
            return HTTPRefusal(
                status: 400, code: "bad_request", message: "the request has several different Content-Length values")
        }
        return nil
    }

    /// `Content-Length` as a number, when present and numeric (libmicrohttpd has already
    /// rejected malformed values with a 400).
    private var contentLength: Int? {
        guard let value = fields.first(named: "Content-Length"), Self.isDigits(value) else { return nil }
        return Int(value) ?? Int.max
    }

    /// Whether `text` is `1*DIGIT`.
    private static func isDigits(_ text: String) -> Bool {
        let digits = text.utf8
        return !digits.isEmpty && digits.allSatisfy { $0 >= 48 && $0 <= 57 }
    }
}
