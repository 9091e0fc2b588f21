/// The params of a matched route, merged with design.md §3 precedence: route defaults < query
/// parameters < path captures. A key sits where it first appears (defaults, then query, then
/// captures) and takes its value from the highest layer that has it; a query key given more
/// than once is an array of its values, in order. Names are compared as `String`s are
/// (canonical equivalence).
///
/// One merge, rendered two ways: straight into the JSON of an answer (``write(to:)``) or as
/// values (``values()``). Its sources are read in place: the defaults and captures from the
/// router's tables (held as arrays they would be retained and released on reference counts
/// every worker thread shares, see ``MatchTables``), the query as decoded pieces.
struct ParamsMerge {
    /// A member's name as its source holds it.
    enum Name {
        case text(String)
        case bytes(UnsafeBufferPointer<UInt8>)
    }

    /// Where a member's value comes from.
    enum Value {
        /// The capture at this index (a segment, or the rest of the path for a catch-all).
        case capture(Int)
        /// Every query piece with this name: one is a string, more an array.
        case query(Name)
        /// The default at this index.
        case `default`(Int)
    }

    /// Up to this many inputs, names are found by linear scans (no hashing, nothing
    /// allocated: the common case of a few params); above it, through an index of names, so
    /// that a URL with thousands of query keys stays linear.
    static let linearScanLimit = 16

    let defaults: UnsafeBufferPointer<(name: String, value: String)>
    let query: UnsafeBufferPointer<QueryPiece>
    let captures: UnsafeBufferPointer<RouterBuilder.Capture>
    let segments: UnsafeBufferPointer<PathSegment>
    private let index: NameIndex?

    init(
        defaults: UnsafeBufferPointer<(name: String, value: String)>, query: UnsafeBufferPointer<QueryPiece>,
        captures: UnsafeBufferPointer<RouterBuilder.Capture>, segments: UnsafeBufferPointer<PathSegment>
    ) {
        self.defaults = defaults
        self.query = query
        self.captures = captures
        self.segments = segments
        index =
            defaults.count + query.count + captures.count > Self.linearScanLimit
            ? NameIndex(defaults: defaults, query: query, captures: captures) : nil
    }

    // MARK: - The merge

    /// Calls `body` with every member, in order.
    func forEachMember(_ body: (Name, Value) -> Void) {
        for position in defaults.indices {
            let name = defaults[position].name
            guard firstDefault(named: name) == position else { continue }
            body(.text(name), value(of: .text(name)))
        }
        for position in query.indices {
            let name = Name.bytes(query[position].name)
            guard !hasDefault(named: name), firstQueryPiece(named: name) == position else { continue }
            body(name, value(of: name))
        }
        for position in captures.indices {
            let name = Name.text(captures[position].name)
            guard !hasDefault(named: name), firstQueryPiece(named: name) == nil, firstCapture(named: name) == position
            else { continue }
            body(name, .capture(lastCapture(named: name) ?? position))
        }
    }

    /// The value of the member called `name`: the highest layer that has it.
    private func value(of name: Name) -> Value {
        if let capture = lastCapture(named: name) { return .capture(capture) }
        if firstQueryPiece(named: name) != nil { return .query(name) }
        return .default(lastDefault(named: name) ?? 0)
    }

    /// Calls `body` with the value of every query piece called `name`, in order.
    private func forEachQueryValue(named name: Name, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if let index {
            for position in index.query[name.string] ?? [] { body(query[position].value) }
            return
        }
        for position in query.indices where Self.equal(name, query[position].name) { body(query[position].value) }
    }

    private func hasDefault(named name: Name) -> Bool {
        if let index { return index.defaults[name.string] != nil }
        return defaults.contains { Self.equal(name, $0.name) }
    }

    private func firstDefault(named name: String) -> Int? {
        if let index { return index.defaults[name]?.first }
        return defaults.firstIndex { $0.name == name }
    }

    private func lastDefault(named name: Name) -> Int? {
        if let index { return index.defaults[name.string]?.last }
        return defaults.lastIndex { Self.equal(name, $0.name) }
    }

    private func firstQueryPiece(named name: Name) -> Int? {
        if let index { return index.query[name.string]?.first }
        return query.firstIndex { Self.equal(name, $0.name) }
    }

    private func firstCapture(named name: Name) -> Int? {
        if let index { return index.captures[name.string]?.first }
        return captures.firstIndex { Self.equal(name, $0.name) }
    }

    private func lastCapture(named name: Name) -> Int? {
        if let index { return index.captures[name.string]?.last }
        return captures.lastIndex { Self.equal(name, $0.name) }
    }

    // MARK: - Renderings

    /// Writes every member, without the braces.
    func write(to writer: inout JSONWriter) {
        var isFirst = true
        forEachMember { name, value in
            if !isFirst { writer.writeSyntax(",") }
            isFirst = false
            switch name {
            case .text(let text): writer.writeString(text)
            case .bytes(let bytes): writer.writeString(utf8: bytes)
            }
            writer.writeSyntax(":")
            switch value {
            case .capture(let capture):
                writeCapture(capture, to: &writer)
            case .default(let position):
                writer.writeString(defaults[position].value)
            case .query(let name):
                var count = 0
                forEachQueryValue(named: name) { _ in count += 1 }
                guard count > 1 else {
                    forEachQueryValue(named: name) { writer.writeString(utf8: $0) }
                    return
                }
                writer.writeSyntax("[")
                var isFirstValue = true
                forEachQueryValue(named: name) { value in
                    if !isFirstValue { writer.writeSyntax(",") }
                    isFirstValue = false
                    writer.writeString(utf8: value)
                }
                writer.writeSyntax("]")
            }
        }
    }

    /// Every member as a name and a value.
    func values() -> [(name: String, value: JSONValue)] {
        var members: [(name: String, value: JSONValue)] = []
        forEachMember { name, value in
            let json: JSONValue
            switch value {
            case .capture(let capture):
                json = .string(captureValue(capture))
            case .default(let position):
                json = .string(defaults[position].value)
            case .query(let name):
                var values: [String] = []
                forEachQueryValue(named: name) { values.append(String(decoding: $0, as: UTF8.self)) }
                json = values.count == 1 ? .string(values[0]) : .array(values.map(JSONValue.string))
            }
            members.append((name.string, json))
        }
        return members
    }

    /// The captures as the pattern names them, in pattern order (not merged).
    func captureValues() -> [(name: String, value: String)] {
        captures.indices.map { (captures[$0].name, captureValue($0)) }
    }

    /// A segment, or for a catch-all the rest of the path joined with `/`.
    private func writeCapture(_ capture: Int, to writer: inout JSONWriter) {
        let first = captures[capture].segment
        guard captures[capture].isCatchAll else {
            writer.writeString(utf8: segments[first].bytes)
            return
        }
        writer.openString()
        for segment in first..<segments.count {
            if segment > first { writer.writeSyntaxInString("/") }
            writer.writeStringContent(segments[segment].bytes)
        }
        writer.closeString()
    }

    private func captureValue(_ capture: Int) -> String {
        let first = captures[capture].segment
        guard captures[capture].isCatchAll else { return segments[first].string }
        return segments[first...].map(\.string).joined(separator: "/")
    }

    // MARK: - Names

    /// Whether `name` and the decoded bytes `other` are equal as `String`s.
    private static func equal(_ name: Name, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        switch name {
        case .bytes(let bytes): equal(bytes, other)
        case .text(let text):
            text.utf8.withContiguousStorageIfAvailable { equal($0, other) } ?? (text == String(decoding: other, as: UTF8.self))
        }
    }

    private static func equal(_ name: Name, _ other: String) -> Bool {
        switch name {
        case .text(let text): text == other
        case .bytes(let bytes): equal(.text(other), bytes)
        }
    }

    /// Whether two decoded names are equal as `String`s compare: the same bytes are, two
    /// different ASCII texts are not, and anything else is left to `String` (canonical
    /// equivalence).
    private static func equal(_ name: UnsafeBufferPointer<UInt8>, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        if name.count == other.count {
            var index = 0
            while index < name.count, name[index] == other[index] { index += 1 }
            if index == name.count { return true }
        }
        if isASCII(name), isASCII(other) { return false }
        return String(decoding: name, as: UTF8.self) == String(decoding: other, as: UTF8.self)
    }

    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { $0 < 0x80 }
    }

    /// Where each name is in each layer, for a merge of many inputs.
    private struct NameIndex {
        var defaults: [String: (first: Int, last: Int)] = [:]
        var query: [String: [Int]] = [:]
        var captures: [String: (first: Int, last: Int)] = [:]

        init(
            defaults: UnsafeBufferPointer<(name: String, value: String)>, query: UnsafeBufferPointer<QueryPiece>,
            captures: UnsafeBufferPointer<RouterBuilder.Capture>
        ) {
            for position in defaults.indices {
                self.defaults[defaults[position].name, default: (position, position)].last = position
            }
            for position in query.indices {
                self.query[String(decoding: query[position].name, as: UTF8.self), default: []].append(position)
            }
            for position in captures.indices {
                self.captures[captures[position].name, default: (position, position)].last = position
            }
        }
    }
}

extension ParamsMerge.Name {
    /// The name as a `String`.
    var string: String {
        switch self {
        case .text(let text): text
        case .bytes(let bytes): String(decoding: bytes, as: UTF8.self)
        }
    }
}
