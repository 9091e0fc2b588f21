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
        /// The query pieces named as input `owner`: one is a string, more (`count`) an array.
        case query(owner: Int, count: Int)
        /// The default at this index.
        case `default`(Int)
    }

    /// Up to this many inputs, the inputs that share a name are found by comparing them with
    /// each other once (nothing hashed or allocated: the common case of a few params); above
    /// it, through a dictionary of names, so that a URL with thousands of query keys stays
    /// linear.
    static let linearScanLimit = 16

    let defaults: UnsafeBufferPointer<(name: String, value: String)>
    let query: UnsafeBufferPointer<QueryPiece>
    let captures: UnsafeBufferPointer<RouterBuilder.Capture>
    let segments: UnsafeBufferPointer<PathSegment>
    /// The inputs in one numbering: the defaults, then the query pieces, then the captures.
    /// For each, the first input with its name (its member), and the next input with it (or
    /// -1). Temporary storage, so that the merge holds nothing reference-counted.
    private let owners: UnsafeMutableBufferPointer<Int32>
    private let nexts: UnsafeMutableBufferPointer<Int32>

    /// Calls `body` with the merge of these inputs, valid until it returns.
    static func with<Result>(
        defaults: UnsafeBufferPointer<(name: String, value: String)>, query: UnsafeBufferPointer<QueryPiece>,
        captures: UnsafeBufferPointer<RouterBuilder.Capture>, segments: UnsafeBufferPointer<PathSegment>,
        _ body: (ParamsMerge) -> Result
    ) -> Result {
        let count = defaults.count + query.count + captures.count
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: max(1, 3 * count)) { storage in
            let merge = ParamsMerge(
                defaults: defaults, query: query, captures: captures, segments: segments,
                owners: UnsafeMutableBufferPointer(rebasing: storage[0..<count]),
                nexts: UnsafeMutableBufferPointer(rebasing: storage[count..<2 * count]),
                scratch: UnsafeMutableBufferPointer(rebasing: storage[2 * count..<3 * count]))
            return body(merge)
        }
    }

    private init(
        defaults: UnsafeBufferPointer<(name: String, value: String)>, query: UnsafeBufferPointer<QueryPiece>,
        captures: UnsafeBufferPointer<RouterBuilder.Capture>, segments: UnsafeBufferPointer<PathSegment>,
        owners: UnsafeMutableBufferPointer<Int32>, nexts: UnsafeMutableBufferPointer<Int32>,
        scratch lastOf: UnsafeMutableBufferPointer<Int32>
    ) {
        self.defaults = defaults
        self.query = query
        self.captures = captures
        self.segments = segments
        self.owners = owners
        self.nexts = nexts
        let count = owners.count
        if count <= Self.linearScanLimit {
            for input in 0..<count {
                var owner = input
                // Only members need comparing: every input before `input` has one of them.
                for earlier in 0..<input where Int(owners[earlier]) == earlier && sameName(earlier, input) {
                    owner = earlier
                    break
                }
                owners[input] = Int32(owner)
            }
        } else {
            var ownerByName: [String: Int32] = [:]
            for input in 0..<count {
                let name = string(input)
                let owner = ownerByName[name] ?? Int32(input)
                if owner == Int32(input) { ownerByName[name] = owner }
                owners[input] = owner
            }
        }
        // Each member's chain, built from the end: the input seen last (nearest after) with the
        // same member is the next one.
        for input in 0..<count { lastOf[input] = -1 }
        for input in (0..<count).reversed() {
            let owner = Int(owners[input])
            nexts[input] = lastOf[owner]
            lastOf[owner] = Int32(input)
        }
    }

    // MARK: - The merge

    private var inputCount: Int { defaults.count + query.count + captures.count }

    /// The first input with the same name as `input`.
    private func owner(_ input: Int) -> Int {
        Int(owners[input])
    }

    /// The next input with the same name as `input`, or -1.
    private func next(_ input: Int) -> Int {
        Int(nexts[input])
    }

    /// Calls `body` with every member, in order: a name where it first appears, with its value
    /// from the highest layer that has it.
    func forEachMember(_ body: (Name, Value) -> Void) {
        let queryStart = defaults.count
        let captureStart = queryStart + query.count
        for member in 0..<inputCount where owner(member) == member {
            var lastDefault = -1
            var queryCount = 0
            var lastCapture = -1
            var input = member
            while input >= 0 {
                if input >= captureStart {
                    lastCapture = input - captureStart
                } else if input >= queryStart {
                    queryCount += 1
                } else {
                    lastDefault = input
                }
                input = next(input)
            }
            let value: Value =
                lastCapture >= 0
                ? .capture(lastCapture) : queryCount > 0 ? .query(owner: member, count: queryCount) : .default(lastDefault)
            body(name(member), value)
        }
    }

    /// Calls `body` with the value of every query piece of member `owner`, in order.
    private func forEachQueryValue(of owner: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let queryStart = defaults.count
        var input = owner
        while input >= 0 {
            if input >= queryStart, input < queryStart + query.count { body(query[input - queryStart].value) }
            input = next(input)
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
            case .query(let owner, let count):
                guard count > 1 else {
                    forEachQueryValue(of: owner) { writer.writeString(utf8: $0) }
                    return
                }
                writer.writeSyntax("[")
                var isFirstValue = true
                forEachQueryValue(of: owner) { value in
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
            case .query(let owner, _):
                var values: [String] = []
                forEachQueryValue(of: owner) { values.append(String(decoding: $0, as: UTF8.self)) }
                json = values.count == 1 ? .string(values[0]) : .array(values.map(JSONValue.string))
            }
            members.append((string(of: name), json))
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

    /// The name of input `input`, as its layer holds it.
    private func name(_ input: Int) -> Name {
        let queryStart = defaults.count
        let captureStart = queryStart + query.count
        if input >= captureStart { return .capture(input - captureStart) }
        if input >= queryStart { return .query(input - queryStart) }
        return .default(input)
    }

    /// The name of input `input` as a `String`.
    private func string(_ input: Int) -> String {
        string(of: name(input))
    }

    private func string(of name: Name) -> String {
        switch name {
        case .default(let position): defaults[position].name
        case .query(let position): String(decoding: query[position].name, as: UTF8.self)
        case .capture(let position): captures[position].name
        }
    }

    /// Whether inputs `one` and `another` have names equal as `String`s compare.
    private func sameName(_ one: Int, _ another: Int) -> Bool {
        switch (name(one), name(another)) {
        case (.query(let piece), .query(let other)):
            Self.equal(query[piece].name, query[other].name)
        case (.query(let piece), .default(let position)), (.default(let position), .query(let piece)):
            Self.equal(defaults[position].name, query[piece].name)
        case (.query(let piece), .capture(let position)), (.capture(let position), .query(let piece)):
            Self.equal(captures[position].name, query[piece].name)
        case (.default(let position), .default(let other)):
            defaults[position].name == defaults[other].name
        case (.default(let position), .capture(let other)), (.capture(let other), .default(let position)):
            defaults[position].name == captures[other].name
        case (.capture(let position), .capture(let other)):
            captures[position].name == captures[other].name
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
}
