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
    /// A member's name: where it is among its layer's inputs. Only numbers, so that passing
    /// names around retains nothing.
    enum Name {
        case `default`(Int)
        case query(Int)
        case capture(Int)
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
        for position in defaults.indices where first(.default(position), among: .default(0)) == position {
            body(.default(position), value(of: .default(position)))
        }
        for position in query.indices {
            let name = Name.query(position)
            guard first(name, among: .default(0)) == nil, first(name, among: .query(0)) == position else { continue }
            body(name, value(of: name))
        }
        for position in captures.indices {
            let name = Name.capture(position)
            guard first(name, among: .default(0)) == nil, first(name, among: .query(0)) == nil,
                first(name, among: .capture(0)) == position
            else { continue }
            body(name, .capture(last(name, among: .capture(0)) ?? position))
        }
    }

    /// The value of the member called `name`: the highest layer that has it.
    private func value(of name: Name) -> Value {
        if let capture = last(name, among: .capture(0)) { return .capture(capture) }
        if first(name, among: .query(0)) != nil { return .query(name) }
        return .default(last(name, among: .default(0)) ?? 0)
    }

    /// Calls `body` with the value of every query piece called `name`, in order.
    private func forEachQueryValue(named name: Name, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if let index {
            for position in index.query[string(name)] ?? [] { body(query[position].value) }
            return
        }
        switch name {
        case .query(let piece):
            let bytes = query[piece].name
            for position in query.indices where Self.equal(query[position].name, bytes) { body(query[position].value) }
        case .default(let position):
            let text = defaults[position].name
            for position in query.indices where Self.equal(text, query[position].name) { body(query[position].value) }
        case .capture(let position):
            let text = captures[position].name
            for position in query.indices where Self.equal(text, query[position].name) { body(query[position].value) }
        }
    }

    /// The first input called `name` in the layer of `layer` (whose number is ignored).
    private func first(_ name: Name, among layer: Name) -> Int? {
        if let index { return index.positions(of: string(name), in: layer)?.first }
        // The kind of comparison is chosen once, outside the scan: this runs for every member.
        switch name {
        case .query(let piece):
            let bytes = query[piece].name
            switch layer {
            case .default: return defaults.indices.first { Self.equal(defaults[$0].name, bytes) }
            case .query: return query.indices.first { Self.equal(query[$0].name, bytes) }
            case .capture: return captures.indices.first { Self.equal(captures[$0].name, bytes) }
            }
        case .default(let position):
            return first(text: defaults[position].name, among: layer)
        case .capture(let position):
            return first(text: captures[position].name, among: layer)
        }
    }

    private func first(text: String, among layer: Name) -> Int? {
        switch layer {
        case .default: defaults.indices.first { defaults[$0].name == text }
        case .query: query.indices.first { Self.equal(text, query[$0].name) }
        case .capture: captures.indices.first { captures[$0].name == text }
        }
    }

    /// The last input called `name` in the layer of `layer` (whose number is ignored).
    private func last(_ name: Name, among layer: Name) -> Int? {
        if let index { return index.positions(of: string(name), in: layer)?.last }
        switch name {
        case .query(let piece):
            let bytes = query[piece].name
            switch layer {
            case .default: return defaults.indices.last { Self.equal(defaults[$0].name, bytes) }
            case .query: return query.indices.last { Self.equal(query[$0].name, bytes) }
            case .capture: return captures.indices.last { Self.equal(captures[$0].name, bytes) }
            }
        case .default(let position):
            return last(text: defaults[position].name, among: layer)
        case .capture(let position):
            return last(text: captures[position].name, among: layer)
        }
    }

    private func last(text: String, among layer: Name) -> Int? {
        switch layer {
        case .default: defaults.indices.last { defaults[$0].name == text }
        case .query: query.indices.last { Self.equal(text, query[$0].name) }
        case .capture: captures.indices.last { captures[$0].name == text }
        }
    }

    // MARK: - Renderings

    /// Writes every member, without the braces.
    func write(to writer: inout JSONWriter) {
        var isFirst = true
        forEachMember { name, value in
            if !isFirst { writer.writeSyntax(",") }
            isFirst = false
            switch name {
            case .default(let position): writer.writeString(defaults[position].name)
            case .query(let position): writer.writeString(utf8: query[position].name)
            case .capture(let position): writer.writeString(captures[position].name)
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
            members.append((string(name), json))
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

    /// The name as a `String`.
    private func string(_ name: Name) -> String {
        switch name {
        case .default(let position): defaults[position].name
        case .query(let position): String(decoding: query[position].name, as: UTF8.self)
        case .capture(let position): captures[position].name
        }
    }

    /// Whether `name` equals the decoded bytes `other` as `String`s compare.
    private static func equal(_ name: String, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        name.utf8.withContiguousStorageIfAvailable { equal($0, other) } ?? (name == String(decoding: other, as: UTF8.self))
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
        var defaults: [String: [Int]] = [:]
        var query: [String: [Int]] = [:]
        var captures: [String: [Int]] = [:]

        /// The positions of the inputs called `name` in the layer of `layer`, in order.
        func positions(of name: String, in layer: Name) -> [Int]? {
            switch layer {
            case .default: defaults[name]
            case .query: query[name]
            case .capture: captures[name]
            }
        }

        init(
            defaults: UnsafeBufferPointer<(name: String, value: String)>, query: UnsafeBufferPointer<QueryPiece>,
            captures: UnsafeBufferPointer<RouterBuilder.Capture>
        ) {
            for position in defaults.indices {
                self.defaults[defaults[position].name, default: []].append(position)
            }
            for position in query.indices {
                self.query[String(decoding: query[position].name, as: UTF8.self), default: []].append(position)
            }
            for position in captures.indices {
                self.captures[captures[position].name, default: []].append(position)
            }
        }
    }
}
