/// Writes the members of the `params` object of a `/resolve` answer straight from their
/// sources (route defaults, query pieces, path captures), with the precedence and order of
/// ``ParamsMerger``: a key sits where it first appears (defaults, then query, then captures)
/// and takes its value from the highest layer that has it (captures > query > defaults);
/// a query key given more than once is an array. Names are compared as `String`s are
/// (canonical equivalence), so the keys are the merger's.
///
/// The defaults and captures are read in place from the router's tables: held as arrays, they
/// would be retained and released several times per request, on reference counts every worker
/// thread shares (see ``MatchTables``).
struct ParamsWriter {
    let defaults: UnsafeBufferPointer<(name: String, value: String)>
    let query: UnsafeBufferPointer<QueryPiece>
    let captures: UnsafeBufferPointer<RouterBuilder.Capture>
    let segments: UnsafeBufferPointer<PathSegment>
    private var isFirst = true

    init(
        defaults: UnsafeBufferPointer<(name: String, value: String)>, query: UnsafeBufferPointer<QueryPiece>,
        captures: UnsafeBufferPointer<RouterBuilder.Capture>, segments: UnsafeBufferPointer<PathSegment>
    ) {
        self.defaults = defaults
        self.query = query
        self.captures = captures
        self.segments = segments
    }

    /// Writes every member, without the braces. Elements are read in place by index rather
    /// than copied out by `for … in` loops.
    mutating func write(to writer: inout JSONWriter) {
        for index in defaults.indices where !hasDefault(named: defaults[index].name, before: index) {
            let name = defaults[index].name
            memberName(to: &writer) { $0.writeString(name) }
            writeValue(to: &writer, isName: { $0 == name }, isQueryName: { Self.equal(name, $0) })
        }
        for index in query.indices {
            let name = query[index].name
            guard !defaults.indices.contains(where: { Self.equal(defaults[$0].name, name) }),
                !query[..<index].contains(where: { Self.equal($0.name, name) })
            else { continue }
            memberName(to: &writer) { $0.writeString(utf8: name) }
            writeValue(to: &writer, isName: { Self.equal($0, name) }, isQueryName: { Self.equal($0, name) })
        }
        for index in captures.indices {
            let name = captures[index].name
            guard !hasDefault(named: name, before: defaults.count), !query.contains(where: { Self.equal(name, $0.name) }),
                !captures[..<index].contains(where: { $0.name == name })
            else { continue }
            memberName(to: &writer) { $0.writeString(name) }
            writeCapture(at: index, to: &writer)
        }
    }

    /// Whether a default before position `end` has the name `name`.
    private func hasDefault(named name: String, before end: Int) -> Bool {
        var index = 0
        while index < end {
            if defaults[index].name == name { return true }
            index += 1
        }
        return false
    }

    private mutating func memberName(to writer: inout JSONWriter, _ writeName: (inout JSONWriter) -> Void) {
        if !isFirst { writer.writeSyntax(",") }
        isFirst = false
        writeName(&writer)
        writer.writeSyntax(":")
    }

    /// The value of the key that `isName` (for defaults and captures) and `isQueryName` (for
    /// query pieces) recognise.
    private func writeValue(
        to writer: inout JSONWriter, isName: (String) -> Bool, isQueryName: (UnsafeBufferPointer<UInt8>) -> Bool
    ) {
        if let capture = captures.indices.last(where: { isName(captures[$0].name) }) {
            writeCapture(at: capture, to: &writer)
            return
        }
        let count = query.count { isQueryName($0.name) }
        if count == 1, let piece = query.first(where: { isQueryName($0.name) }) {
            writer.writeString(utf8: piece.value)
        } else if count > 1 {
            writer.writeSyntax("[")
            var isFirstValue = true
            for piece in query where isQueryName(piece.name) {
                if !isFirstValue { writer.writeSyntax(",") }
                isFirstValue = false
                writer.writeString(utf8: piece.value)
            }
            writer.writeSyntax("]")
        } else if let item = defaults.indices.last(where: { isName(defaults[$0].name) }) {
            writer.writeString(defaults[item].value)
        }
    }

    /// A segment, or for a catch-all the rest of the path joined with `/`.
    private func writeCapture(at index: Int, to writer: inout JSONWriter) {
        let first = captures[index].segment
        guard captures[index].isCatchAll else {
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

    /// Whether `name` equals the decoded bytes `other` as `String`s compare.
    static func equal(_ name: String, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        name.utf8.withContiguousStorageIfAvailable { equal($0, other) } ?? (name == String(decoding: other, as: UTF8.self))
    }

    /// Whether two decoded names are equal as `String`s compare: the same bytes are, two
    /// different ASCII texts are not, and anything else is left to `String` (canonical
    /// equivalence).
    static func equal(_ name: UnsafeBufferPointer<UInt8>, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
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
}
