/// Writes the members of the `params` object of a `/resolve` answer straight from their
/// sources (route defaults, query pieces, path captures), with the precedence and order of
/// ``ParamsMerger``: a key sits where it first appears (defaults, then query, then captures)
/// and takes its value from the highest layer that has it (captures > query > defaults);
/// a query key given more than once is an array. Names are compared as `String`s are
/// (canonical equivalence), so the keys are the merger's.
struct ParamsWriter {
    let defaults: [(name: String, value: String)]
    let query: UnsafeBufferPointer<QueryPiece>
    let captures: ArraySlice<RouterBuilder.Capture>
    let segments: UnsafeBufferPointer<PathSegment>
    private var isFirst = true

    init(
        defaults: [(name: String, value: String)], query: UnsafeBufferPointer<QueryPiece>,
        captures: ArraySlice<RouterBuilder.Capture>, segments: UnsafeBufferPointer<PathSegment>
    ) {
        self.defaults = defaults
        self.query = query
        self.captures = captures
        self.segments = segments
    }

    /// Writes every member, without the braces.
    mutating func write(to writer: inout JSONWriter) {
        for (index, item) in defaults.enumerated() where !defaults[..<index].contains(where: { $0.name == item.name }) {
            memberName(to: &writer) { $0.writeString(item.name) }
            writeValue(to: &writer, isName: { $0 == item.name }, isQueryName: { Self.equal(item.name, $0) })
        }
        for (index, piece) in query.enumerated() {
            let name = piece.name
            guard !defaults.contains(where: { Self.equal($0.name, name) }),
                !query[..<index].contains(where: { Self.equal($0.name, name) })
            else { continue }
            memberName(to: &writer) { $0.writeString(utf8: name) }
            writeValue(to: &writer, isName: { Self.equal($0, name) }, isQueryName: { Self.equal($0, name) })
        }
        for capture in captures {
            let name = capture.name
            guard !defaults.contains(where: { $0.name == name }), !query.contains(where: { Self.equal(name, $0.name) }),
                captures.first(where: { $0.name == name })?.segment == capture.segment
            else { continue }
            memberName(to: &writer) { $0.writeString(name) }
            writeCapture(capture, to: &writer)
        }
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
        if let capture = captures.last(where: { isName($0.name) }) {
            writeCapture(capture, to: &writer)
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
        } else if let item = defaults.last(where: { isName($0.name) }) {
            writer.writeString(item.value)
        }
    }

    /// A segment, or for a catch-all the rest of the path joined with `/`.
    private func writeCapture(_ capture: RouterBuilder.Capture, to writer: inout JSONWriter) {
        guard capture.isCatchAll else {
            writer.writeString(utf8: segments[capture.segment].bytes)
            return
        }
        writer.openString()
        for index in capture.segment..<segments.count {
            if index > capture.segment { writer.writeSyntaxInString("/") }
            writer.writeStringContent(segments[index].bytes)
        }
        writer.closeString()
    }

    /// Whether `name` equals the decoded bytes `other` as `String`s compare.
    static func equal(_ name: String, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        if isASCII(other), name.utf8.allSatisfy({ $0 < 0x80 }) { return name.utf8.elementsEqual(other) }
        return name == String(decoding: other, as: UTF8.self)
    }

    /// Whether two decoded names are equal as `String`s compare.
    static func equal(_ name: UnsafeBufferPointer<UInt8>, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        if isASCII(name), isASCII(other) { return name.elementsEqual(other) }
        return String(decoding: name, as: UTF8.self) == String(decoding: other, as: UTF8.self)
    }

    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { $0 < 0x80 }
    }
}
