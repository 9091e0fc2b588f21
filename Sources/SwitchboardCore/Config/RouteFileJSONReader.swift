/// A fast reader for route files written as strict JSON (`routes.d/*.json`, or any route file
/// whose first non-space byte is `{`): it builds the ``RouteFile`` straight from the UTF-8
/// bytes, with no intermediate tree and no `Codable` machinery.
///
/// It only accepts what the YAML path (`YAMLDecoder` with ``RouteFile/init(from:)``) decodes
/// to the very same value, and gives up (`nil`) on anything else: a syntax error, a schema
/// error (unknown key, missing `id`, `target` not an object, …), and the rare constructs
/// whose YAML reading needs care (`null` outside `target`, `examples`, escaped surrogates,
/// duplicate keys, non-string params). The caller then decodes the file with Yams as before,
/// so every error message stays exactly what the YAML path says.
///
/// ```swift
/// let file = bytes.withUnsafeBytes { RouteFileJSONReader.read($0) }   // nil: use the YAML path
/// ```
package enum RouteFileJSONReader {
    /// The route file in `bytes`, or `nil` when the YAML path must decide.
    package static func read(_ bytes: UnsafeRawBufferPointer) -> RouteFile? {
        var routes: [RouteDefinition] = []
        guard let module = read(bytes, chunkSize: Int.max, deliver: { _, chunk in routes += chunk }) else { return nil }
        return RouteFile(module: module, routes: routes)
    }

    /// Reads the route file in `bytes`, handing its routes to `deliver` as they are read, in
    /// order, `chunkSize` at a time (with the file's module; the routes of a file whose
    /// `module` comes after `routes` arrive in one chunk at the end), so that they can be
    /// used while the rest is read.
    ///
    /// - Returns: the file's module, or `nil` when the YAML path must decide. Routes may have
    ///   been delivered before a `nil`: they are the file's first ones, exactly as the YAML
    ///   path decodes them.
    package static func read(
        _ bytes: UnsafeRawBufferPointer, chunkSize: Int, deliver: (_ module: String, _ routes: [RouteDefinition]) -> Void
    ) -> String? {
        var reader = Reader(bytes: bytes.bindMemory(to: UInt8.self))
        return try? reader.readFile(chunkSize: max(chunkSize, 1), deliver: deliver)
    }

    /// Convenience for tests and small inputs.
    package static func read(_ text: String) -> RouteFile? {
        var text = text
        return text.withUTF8 { read(UnsafeRawBufferPointer($0)) }
    }
}

/// Why the fast reader gave up; the YAML path then decides.
private struct GiveUp: Error {}

private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// Identical `target` objects share one value (most routes of a module have a few targets).
    var targets: [Int: [(start: Int, end: Int, value: JSONValue)]] = [:]
    var lastTarget: (start: Int, end: Int, value: JSONValue)?

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    // MARK: - File and routes

    mutating func readFile(
        chunkSize: Int, deliver: (_ module: String, _ routes: [RouteDefinition]) -> Void
    ) throws(GiveUp) -> String {
        skipSpace()
        var module: String?
        var seenRoutes = false
        /// Routes read before the module was known.
        var early: [RouteDefinition] = []
        var more = try open(.object)
        while more {
            switch try readKey(Self.fileKeys).key {
            case .module:
                guard module == nil else { throw GiveUp() }
                module = try readString()
            case .routes:
                guard !seenRoutes else { throw GiveUp() }
                seenRoutes = true
                if let module {
                    try readRoutes(chunkSize: chunkSize) { deliver(module, $0) }
                } else {
                    try readRoutes(chunkSize: Int.max) { early = $0 }
                }
            }
            more = try next(in: .object)
        }
        guard index == bytes.count, let module else { throw GiveUp() }
        if !early.isEmpty { deliver(module, early) }
        return module
    }

    /// Reads the `routes` array, handing the routes over `chunkSize` at a time.
    mutating func readRoutes(chunkSize: Int, deliver: (_ routes: [RouteDefinition]) -> Void) throws(GiveUp) {
        // No route takes fewer than 24 bytes (`{"id":"","pattern":""},`): room for that many
        // never regrows, and the capacity left unused is never touched (no resident memory).
        let capacity = min(chunkSize, (bytes.count - index) / 24 + 1)
        var routes: [RouteDefinition] = []
        routes.reserveCapacity(capacity)
        var more = try open(.array)
        while more {
            routes.append(try readRoute())
            if routes.count == chunkSize {
                deliver(routes)
                routes = []
                routes.reserveCapacity(capacity)
            }
            more = try next(in: .array)
        }
        if !routes.isEmpty { deliver(routes) }
    }

    mutating func readRoute() throws(GiveUp) -> RouteDefinition {
        var seen: UInt32 = 0
        var patternKeys = 0
        var id: String?
        var patterns: [String]?
        var target: JSONValue?
        var params: [String: String]?
        var web: String?
        var app: Bool?
        var minAppVersion: String?
        var more = try open(.object)
        while more {
            let key = try readKey(Self.routeKeys)
            let bit = UInt32(1) << UInt32(key.number)
            guard seen & bit == 0 else { throw GiveUp() }
            seen |= bit
            switch key.key {
            case .id: id = try readString()
            case .pattern:
                patterns = [try readString()]
                patternKeys += 1
            case .patterns:
                var list: [String] = []
                try readArray { (reader) throws(GiveUp) in list.append(try reader.readString()) }
                guard !list.isEmpty else { throw GiveUp() }
                patterns = list
                patternKeys += 1
            case .target: target = try readTarget()
            case .params:
                var values: [String: String] = [:]
                try readObjectWithKeys { (reader, name) throws(GiveUp) in
                    guard values.updateValue(try reader.readString(), forKey: name) == nil else { throw GiveUp() }
                }
                params = values
            case .web: web = try readString()
            case .app: app = try readBool()
            case .minAppVersion: minAppVersion = try readString()
            // `examples`, and any key added to RouteDefinitionKey that is not read above: the
            // YAML path decodes it.
            default: throw GiveUp()
            }
            more = try next(in: .object)
        }
        // `pattern` and `patterns` together, or neither, is an error the YAML path reports.
        guard let id, let patterns, patternKeys == 1 else { throw GiveUp() }
        return RouteDefinition(
            id: id, patterns: patterns, target: target ?? .object([]), params: params ?? [:], web: web, app: app,
            minAppVersion: minAppVersion)
    }

    /// A `target`: an object, shared with an identical earlier one. The text is first compared
    /// with the previous route's target (most routes of a file repeat it), which skips parsing:
    /// an object ends at its closing brace, so the same bytes are the same value.
    mutating func readTarget() throws(GiveUp) -> JSONValue {
        guard peek() == UInt8(ascii: "{") else { throw GiveUp() }
        if let last = lastTarget, textMatches(last.start..<last.end, at: index) {
            index += last.end - last.start
            return last.value
        }
        let start = index
        let value = try readValue()
        var end = index
        // The object's text ends at its closing brace, not at the spaces read after it.
        while bytes[end - 1] != UInt8(ascii: "}") { end -= 1 }
        defer { lastTarget = (start, end, value) }
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<end])))
        let hash = hasher.finalize()
        if let candidates = targets[hash] {
            for candidate in candidates where textMatches(candidate.start..<candidate.end, at: start) {
                return candidate.value
            }
        }
        targets[hash, default: []].append((start, end, value))
        return value
    }

    /// Whether the bytes at `position` repeat those of `earlier`.
    private func textMatches(_ earlier: Range<Int>, at position: Int) -> Bool {
        guard bytes.count - position >= earlier.count else { return false }
        for offset in 0..<earlier.count where bytes[earlier.lowerBound + offset] != bytes[position + offset] {
            return false
        }
        return true
    }

    // MARK: - JSON values

    /// Any JSON value, as ``JSONValue/init(from:)`` reads it through Yams: quoted strings are
    /// strings, `true`/`false` booleans, numbers doubles, `null` null; objects keep key order.
    mutating func readValue() throws(GiveUp) -> JSONValue {
        switch peek() {
        case UInt8(ascii: "{"):
            var members: [(key: String, value: JSONValue)] = []
            try readObjectWithKeys { (reader, key) throws(GiveUp) in
                // Yams treats a repeated key in its own way: let it decide.
                guard !members.contains(where: { $0.key == key }) else { throw GiveUp() }
                members.append((key, try reader.readValue()))
            }
            return .object(members)
        case UInt8(ascii: "["):
            var values: [JSONValue] = []
            try readArray { (reader) throws(GiveUp) in values.append(try reader.readValue()) }
            return .array(values)
        case UInt8(ascii: "\""):
            return .string(try readString())
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            return .bool(try readBool())
        case UInt8(ascii: "n"):
            try expectWord("null")
            return .null
        default:
            return .number(try readNumber())
        }
    }

    mutating func readBool() throws(GiveUp) -> Bool {
        if peek() == UInt8(ascii: "t") {
            try expectWord("true")
            return true
        }
        try expectWord("false")
        return false
    }

    mutating func expectWord(_ word: StaticString) throws(GiveUp) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw GiveUp() }
        let pointer = word.utf8Start
        for offset in 0..<count where bytes[index + offset] != pointer[offset] { throw GiveUp() }
        index += count
        try expectDelimiter()
    }

    /// A JSON number (RFC 8259 grammar), read the way Yams reads a plain scalar into `Double`.
    mutating func readNumber() throws(GiveUp) -> Double {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), isDigit(first) else { throw GiveUp() }
        index += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard let digit = peek(), isDigit(digit) else { throw GiveUp() }
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard let digit = peek(), isDigit(digit) else { throw GiveUp() }
            skipDigits()
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text) else { throw GiveUp() }
        // An integer a double cannot hold exactly is left to the Codable path, which refuses it.
        if let integer = Int64(text), Double(exactly: integer) == nil { throw GiveUp() }
        try expectDelimiter()
        return value
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while let byte = peek(), isDigit(byte) { index += 1 }
    }

    /// After a bare word or number: the next byte must end the value.
    private func expectDelimiter() throws(GiveUp) {
        guard let byte = peek() else { return }
        switch byte {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: " "), UInt8(ascii: "\n"),
            UInt8(ascii: "\r"), UInt8(ascii: "\t"):
            return
        default: throw GiveUp()
        }
    }

    /// A quoted string. Plain runs are copied in one go; escapes are decoded. Gives up on
    /// what YAML's double-quoted scalars read differently from JSON: control characters,
    /// escaped surrogates or NUL, and the line breaks NEL, LS and PS (YAML folds them).
    mutating func readString() throws(GiveUp) -> String {
        guard peek() == UInt8(ascii: "\"") else { throw GiveUp() }
        index += 1
        let start = index
        var ascii = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let run = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                if ascii { return String(decoding: run, as: UTF8.self) }
                guard let text = String(validating: run, as: UTF8.self), !hasYAMLLineBreak(run) else { throw GiveUp() }
                return text
            }
            if byte == UInt8(ascii: "\\") { return try readEscapedString(from: start) }
            if byte < 0x20 { throw GiveUp() }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        throw GiveUp()
    }

    private mutating func readEscapedString(from start: Int) throws(GiveUp) -> String {
        var buffer = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: buffer, as: UTF8.self),
                    !buffer.withUnsafeBufferPointer(hasYAMLLineBreak)
                else { throw GiveUp() }
                return text
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw GiveUp() }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"):
                    var value: UInt32 = 0
                    for _ in 0..<4 {
                        guard index < bytes.count, let digit = PercentEncoding.hexDigitValue(bytes[index]) else { throw GiveUp() }
                        value = value << 4 | UInt32(digit)
                        index += 1
                    }
                    guard value != 0, !(0xD800...0xDFFF).contains(value), let scalar = Unicode.Scalar(value) else {
                        throw GiveUp()
                    }
                    buffer += Array(String(Character(scalar)).utf8)
                default: throw GiveUp()
                }
            default:
                guard byte >= 0x20 else { throw GiveUp() }
                buffer.append(byte)
            }
        }
        throw GiveUp()
    }

    /// Whether the UTF-8 text holds NEL (C2 85), LS (E2 80 A8) or PS (E2 80 A9), or a BOM.
    private func hasYAMLLineBreak(_ run: UnsafeBufferPointer<UInt8>) -> Bool {
        var offset = 0
        while offset + 1 < run.count {
            if run[offset] == 0xC2, run[offset + 1] == 0x85 { return true }
            if run[offset] == 0xE2, offset + 2 < run.count, run[offset + 1] == 0x80,
                run[offset + 2] == 0xA8 || run[offset + 2] == 0xA9
            {
                return true
            }
            if run[offset] == 0xEF, offset + 2 < run.count, run[offset + 1] == 0xBB, run[offset + 2] == 0xBF {
                return true
            }
            offset += 1
        }
        return false
    }

    // MARK: - Structure

    /// The keys of a route file and of a route, recognised from their bytes without making
    /// Strings; both lists are the `Codable` ones.
    static let fileKeys = KeyTable<RouteFile.CodingKeys>()
    static let routeKeys = KeyTable<RouteDefinitionKey>()

    /// Reads an object whose keys are data (target members, params), calling `body` with the
    /// reader positioned at each value.
    mutating func readObjectWithKeys(_ body: (inout Reader, String) throws(GiveUp) -> Void) throws(GiveUp) {
        var more = try open(.object)
        while more {
            let key = try readString()
            // `<<` is a merge key in YAML: let Yams decide.
            guard key != "<<" else { throw GiveUp() }
            try expectColon()
            try body(&self, key)
            more = try next(in: .object)
        }
    }

    /// Reads `[ value, … ]`, calling `element` with the reader positioned at each element.
    mutating func readArray(_ element: (inout Reader) throws(GiveUp) -> Void) throws(GiveUp) {
        var more = try open(.array)
        while more {
            try element(&self)
            more = try next(in: .array)
        }
    }

    /// An object (`{ item, … }`, its items `"key": value`) or an array (`[ item, … ]`).
    enum Container {
        case object, array

        var openingByte: UInt8 { self == .object ? UInt8(ascii: "{") : UInt8(ascii: "[") }
        var closingByte: UInt8 { self == .object ? UInt8(ascii: "}") : UInt8(ascii: "]") }
    }

    /// Reads the opening bracket of `container`: `true` when an item follows, `false` when the
    /// container is empty (its closing bracket is read too).
    ///
    /// ```swift
    /// var more = try open(.array)
    /// while more {
    ///     …                                  // read one item
    ///     more = try next(in: .array)
    /// }
    /// ```
    mutating func open(_ container: Container) throws(GiveUp) -> Bool {
        guard peek() == container.openingByte else { throw GiveUp() }
        index += 1
        skipSpace()
        guard peek() != container.closingByte else {
            index += 1
            skipSpace()
            return false
        }
        return true
    }

    /// After an item of `container`: reads `,` (`true`: another item follows) or the closing
    /// bracket (`false`).
    mutating func next(in container: Container) throws(GiveUp) -> Bool {
        skipSpace()
        guard let byte = peek() else { throw GiveUp() }
        index += 1
        skipSpace()
        if byte == container.closingByte { return false }
        guard byte == UInt8(ascii: ",") else { throw GiveUp() }
        return true
    }

    /// A key of `keys` followed by `:`; another key, or a key with escapes, gives up.
    private mutating func readKey<Key>(_ keys: KeyTable<Key>) throws(GiveUp) -> (key: Key, number: Int) {
        guard peek() == UInt8(ascii: "\"") else { throw GiveUp() }
        let start = index + 1
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\""),
            let key = keys.key(UnsafeBufferPointer(rebasing: bytes[start..<end]))
        else { throw GiveUp() }
        index = end + 1
        try expectColon()
        return key
    }

    private mutating func expectColon() throws(GiveUp) {
        skipSpace()
        guard peek() == UInt8(ascii: ":") else { throw GiveUp() }
        index += 1
        skipSpace()
    }

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
            default: return
            }
        }
    }
}

/// The cases of a `String`-backed key enum, found by their UTF-8 bytes.
private struct KeyTable<Key: RawRepresentable & CaseIterable & Sendable>: Sendable where Key.RawValue == String {
    /// By byte count: each key's bytes, the key and its position in `allCases`.
    private let byCount: [[(bytes: [UInt8], key: Key, number: Int)]]

    init() {
        var byCount: [[(bytes: [UInt8], key: Key, number: Int)]] = []
        for (number, key) in Key.allCases.enumerated() {
            let bytes = Array(key.rawValue.utf8)
            while byCount.count <= bytes.count { byCount.append([]) }
            byCount[bytes.count].append((bytes, key, number))
        }
        self.byCount = byCount
    }

    /// The key spelled `name`, with its position in `allCases` (below 32 for a
    /// ``RouteDefinitionKey``), or `nil`.
    func key(_ name: UnsafeBufferPointer<UInt8>) -> (key: Key, number: Int)? {
        guard name.count < byCount.count else { return nil }
        for candidate in byCount[name.count] where candidate.bytes.elementsEqual(name) {
            return (candidate.key, candidate.number)
        }
        return nil
    }
}
