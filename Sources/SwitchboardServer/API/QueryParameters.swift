import SwitchboardCore

/// A request's query, read on demand from its raw bytes: nothing is decoded or split until an
/// endpoint asks for a parameter, and then only as far as it asks (Hummingbird's
/// `URI.queryParameters` is the model).
///
/// The parameters are what ``ParsedURL/queryItems(ofRawQuery:)`` would give: the query is
/// split on `&`, empty pieces are skipped, a name ends at its first `=`, and names and values
/// are percent-decoded with `+` meaning a space. ``check()`` checks the whole of it once, before
/// any parameter is read, so that a malformed query is refused (`400`) by every endpoint,
/// however little of it the endpoint reads.
///
/// ```swift
/// let query = QueryParameters(unchecked: "url=shopapp%3A%2F%2Fp%2F1&a=1&a=2")
/// try query.check()
/// query.first(named: "url")     // "shopapp://p/1"
/// query.values(named: "a")      // ["1", "2"]
/// query.map(\.name)             // ["url", "a", "a"]
/// ```
struct QueryParameters: Sendable, Sequence, ExpressibleByArrayLiteral {
    /// The query exactly as sent, without `?`; `nil` when the target has no `?`.
    let raw: String?

    /// A query not checked yet: ``check()`` runs before any parameter is read.
    init(unchecked raw: String?) {
        self.raw = raw
    }

    /// Checks that every name and value of the query decodes: one scan of the escapes over the
    /// bytes, which allocates nothing; the pieces are decoded one by one only when an escape
    /// stands for a byte beyond ASCII (whether the decoded text is UTF-8 depends on its piece).
    ///
    /// - Throws: the ``URLParseError`` ``ParsedURL/queryItems(ofRawQuery:)`` throws for the
    ///   same query.
    func check() throws(URLParseError) {
        guard let raw, !raw.isEmpty, !withRawBytes(Self.decodes) else { return }
        _ = try ParsedURL.queryItems(ofRawQuery: raw)
    }

    /// An empty query (no parameters).
    init() {
        raw = nil
    }

    /// The query of `items`, each name and value percent-encoded (`[]`: no parameters), for
    /// requests made inside the server and in tests.
    init(arrayLiteral items: QueryItem...) {
        raw =
            items.isEmpty
            ? nil : items.map { Self.encoded($0.name) + "=" + Self.encoded($0.value) }.joined(separator: "&")
    }

    /// `text` with every byte but the unreserved ones (RFC 3986 §2.3) percent-encoded.
    private static func encoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                let digits = Array("0123456789ABCDEF".utf8)
                bytes += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 15)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Calls `body` with the raw query's UTF-8 bytes (empty without a query).
    func withRawBytes<Result, Failure: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result)
        throws(Failure) -> Result
    {
        var text = raw ?? ""
        let outcome = text.withUTF8 { bytes -> Swift.Result<Result, Failure> in
            do throws(Failure) {
                return .success(try body(bytes))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// The value of the first parameter called `name`, decoded; `nil` when there is none.
    func first(named name: String) -> String? {
        withRawBytes { bytes in
            var found: String?
            Self.forEachParameter(in: bytes) { rawName, rawValue in
                guard Self.name(rawName, is: name) else { return true }
                found = Self.decoded(rawValue)
                return false
            }
            return found
        }
    }

    /// The values of every parameter called `name`, decoded, in order.
    func values(named name: String) -> [String] {
        withRawBytes { bytes in
            var found: [String] = []
            Self.forEachParameter(in: bytes) { rawName, rawValue in
                if Self.name(rawName, is: name) { found.append(Self.decoded(rawValue)) }
                return true
            }
            return found
        }
    }

    /// The parameters in order, each decoded as the iteration reaches it.
    func makeIterator() -> Iterator {
        Iterator(raw: raw ?? "")
    }

    /// The parameters of a query, one piece of the raw query at a time.
    struct Iterator: IteratorProtocol {
        fileprivate var raw: String
        /// Where the next piece starts in the raw query's bytes.
        fileprivate var offset = 0

        mutating func next() -> QueryItem? {
            let start = offset
            var item: QueryItem?
            var resume = start
            raw.withUTF8 { bytes in
                var pieceStart = start
                while pieceStart < bytes.count {
                    let end = ParsedURL.firstOffset(of: UInt8(ascii: "&"), in: bytes, from: pieceStart, before: bytes.count)
                    defer { pieceStart = end + 1 }
                    guard end > pieceStart else { continue }
                    let nameEnd = ParsedURL.firstOffset(of: UInt8(ascii: "="), in: bytes, from: pieceStart, before: end)
                    item = QueryItem(
                        name: QueryParameters.decoded(UnsafeBufferPointer(rebasing: bytes[pieceStart..<nameEnd])),
                        value: QueryParameters.decoded(UnsafeBufferPointer(rebasing: bytes[Swift.min(nameEnd + 1, end)..<end])))
                    resume = end + 1
                    return
                }
                resume = bytes.count
            }
            offset = resume
            return item
        }
    }

    // MARK: Bytes

    /// Calls `body` with the raw name and value of each parameter of the query `bytes`, in
    /// order, until it returns `false`. Empty pieces between `&`s are skipped; a piece without
    /// `=` has an empty value.
    static func forEachParameter(
        in bytes: UnsafeBufferPointer<UInt8>,
        _ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) -> Bool
    ) {
        var start = 0
        while start < bytes.count {
            let end = ParsedURL.firstOffset(of: UInt8(ascii: "&"), in: bytes, from: start, before: bytes.count)
            if end > start {
                let nameEnd = ParsedURL.firstOffset(of: UInt8(ascii: "="), in: bytes, from: start, before: end)
                let name = UnsafeBufferPointer(rebasing: bytes[start..<nameEnd])
                let value = UnsafeBufferPointer(rebasing: bytes[Swift.min(nameEnd + 1, end)..<end])
                guard body(name, value) else { return }
            }
            start = end + 1
        }
    }

    /// Whether the raw (still encoded) parameter name `rawName` decodes to `name`: a
    /// comparison of the bytes when there is nothing to decode, as for every name a client
    /// sends in the usual form.
    static func name(_ rawName: UnsafeBufferPointer<UInt8>, is name: String) -> Bool {
        var expected = name
        return expected.withUTF8 { expected in
            guard PercentEncoding.needsDecoding(rawName, plusAsSpace: true) else {
                return rawName.count == expected.count && rawName.elementsEqual(expected)
            }
            guard rawName.count >= expected.count else { return false }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: rawName.count) { decoded in
                guard let count = PercentEncoding.decode(rawName, into: decoded, plusAsSpace: true) else { return false }
                return count == expected.count && decoded[..<count].elementsEqual(expected)
            }
        }
    }

    /// `raw` percent-decoded, `+` as a space (an empty string for what does not decode, which
    /// a validated query never holds).
    static func decoded(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        guard PercentEncoding.needsDecoding(raw, plusAsSpace: true) else { return String(decoding: raw, as: UTF8.self) }
        return PercentEncoding.decodedString(raw, plusAsSpace: true) ?? ""
    }

    /// Whether every name and value of the query `bytes` decodes (see ``check()``).
    private static func decodes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var decodesBeyondASCII = false
        // A byte at a time: in a link given as a value, escapes come every few bytes, closer
        // than a search for the next `%` pays for.
        var index = 0
        let count = bytes.count
        while index < count {
            guard bytes[index] == UInt8(ascii: "%") else {
                index += 1
                continue
            }
            guard index + 2 < count, let high = hexValue(bytes[index + 1]), hexValue(bytes[index + 2]) != nil else {
                return false
            }
            if high >= 8 { decodesBeyondASCII = true }
            index += 3
        }
        // The query is UTF-8 text split at ASCII bytes, and decoding ASCII keeps it UTF-8.
        guard decodesBeyondASCII else { return true }
        var decodes = true
        forEachParameter(in: bytes) { name, value in
            decodes = decodesToUTF8(name) && decodesToUTF8(value)
            return decodes
        }
        return decodes
    }

    /// Whether `piece` percent-decodes to UTF-8.
    private static func decodesToUTF8(_ piece: UnsafeBufferPointer<UInt8>) -> Bool {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Swift.max(1, piece.count)) { decoded in
            PercentEncoding.decode(piece, into: decoded, plusAsSpace: true) != nil
        }
    }

    /// The value of the hexadecimal digit `byte`, or `nil`.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
