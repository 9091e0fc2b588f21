/// Turns the text of a route pattern into its expansions. Registration-time code: clarity
/// over speed.
struct PatternParser {
    /// At most this many expansions of optional groups per pattern.
    static let maximumExpansions = 256

    /// A character of the pattern with its index in the original text, so that errors found
    /// in an expansion still point into what the user wrote.
    private typealias Located = (character: Character, position: Int)

    /// A piece of the path part: plain text or an optional group.
    private indirect enum Piece {
        case text([Located])
        case group([Piece])
    }

    private let text: String
    private let characters: [Character]

    init(_ text: String) {
        self.text = text
        self.characters = Array(text)
    }

    private func error(_ message: String, at position: Int) -> PatternError {
        PatternError(pattern: text, message: message, position: position)
    }

    /// The one expansion of a plain path pattern (see ``isPlainPath(_:)``), read from the
    /// UTF-8 bytes; `nil` when the pattern needs the full parser (which also reports every
    /// error, with its position).
    static func parsePlainPath(_ text: String) -> RoutePattern? {
        var utf8 = text
        return utf8.withUTF8 { bytes -> RoutePattern? in
            guard isPlainPath(bytes) else { return nil }
            var segments: [PatternSegment] = []
            segments.reserveCapacity(bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "/") ? 1 : 0) })
            forEachPlainSegment(bytes) { segment, isParameter in
                let text = String(decoding: segment, as: UTF8.self)
                segments.append(isParameter ? .parameter(name: text, constraint: nil) : .literal(text))
            }
            return RoutePattern(text: text, scheme: nil, host: nil, segments: segments)
        }
    }

    /// Whether `bytes` is a plain path pattern, `/a/:b/c`: it starts with `/`; its segments
    /// are ASCII letters, digits and `-._~!$&'+,;=@:`; a segment starting with `:` is a
    /// parameter whose name is letters, digits, `_` and `-`, used once. No groups,
    /// constraints, catch-alls or escapes; empty segments (`//`, a trailing `/`) are skipped.
    static func isPlainPath(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.first == UInt8(ascii: "/") else { return false }
        // The names seen so far, on the stack: a parameter takes at least 3 bytes (`/:a`).
        return withUnsafeTemporaryAllocation(of: UnsafeBufferPointer<UInt8>.self, capacity: bytes.count / 3 + 1) { names in
            var nameCount = 0
            var isPlain = true
            forEachPlainSegment(bytes) { segment, isParameter in
                guard isPlain else { return }
                guard isParameter else {
                    isPlain = segment.allSatisfy(URLCharacterSet.plainPatternSegment.contains)
                    return
                }
                guard !segment.isEmpty, segment.allSatisfy(URLCharacterSet.patternName.contains),
                    !names[..<nameCount].contains(where: { $0.elementsEqual(segment) })
                else {
                    isPlain = false
                    return
                }
                names.initializeElement(at: nameCount, to: segment)
                nameCount += 1
            }
            return isPlain
        }
    }

    /// Calls `body` with each non-empty `/`-separated segment of a plain path pattern, in order:
    /// its bytes (a parameter's without the `:`) and whether it is a parameter.
    static func forEachPlainSegment(
        _ bytes: UnsafeBufferPointer<UInt8>, _ body: (_ segment: UnsafeBufferPointer<UInt8>, _ isParameter: Bool) -> Void
    ) {
        var start = 0
        while start < bytes.count {
            if bytes[start] == UInt8(ascii: "/") {
                start += 1
                continue
            }
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "/") { end += 1 }
            let isParameter = bytes[start] == UInt8(ascii: ":")
            body(UnsafeBufferPointer(rebasing: bytes[(isParameter ? start + 1 : start)..<end]), isParameter)
            start = end
        }
    }

    func parse() throws(PatternError) -> [RoutePattern] {
        guard !characters.isEmpty else {
            throw error("a pattern must not be empty", at: 0)
        }
        let (scheme, host, pathStart, implicitSlash) = try parsePrefix()
        var located: [Located] = []
        if implicitSlash { located.append(("/", pathStart)) }
        for index in pathStart..<characters.count {
            located.append((characters[index], index))
        }
        let pieces = try parsePieces(located)
        let expansions = expand(pieces)
        guard expansions.count <= Self.maximumExpansions else {
            throw error(
                "too many optional groups: \(expansions.count) combinations, at most \(Self.maximumExpansions)",
                at: pathStart)
        }
        var parsed: [[PatternSegment]] = []
        parsed.reserveCapacity(expansions.count)
        for expansion in expansions { parsed.append(try parseSegments(expansion)) }
        // Most segments first; among equal counts, the order of generation, which keeps an
        // earlier group before a later one. Two expansions that accept the same URLs
        // (`/(:a/)(:b/)x` on `/v/x`) then resolve to the earlier group's names, whatever the
        // names' lengths (design.md §3).
        let ordered = parsed.enumerated().sorted { lhs, rhs in
            lhs.element.count != rhs.element.count
                ? lhs.element.count > rhs.element.count : lhs.offset < rhs.offset
        }
        var patterns: [RoutePattern] = []
        var seen = Set<[PatternSegment]>()
        for (_, segments) in ordered where seen.insert(segments).inserted {
            patterns.append(RoutePattern(text: text, scheme: scheme, host: host, segments: segments))
        }
        return patterns
    }

    // MARK: - Scheme and host

    /// Splits off `scheme://host` and says where the path starts.
    private func parsePrefix() throws(PatternError) -> (
        scheme: String?, host: String?, pathStart: Int, implicitSlash: Bool
    ) {
        if characters[0] == "/" || characters[0] == "(" {
            return (nil, nil, 0, false)
        }
        guard let separator = find("://") else {
            throw error("a pattern starts with '/' (any app link) or with 'scheme://'", at: 0)
        }
        let schemeText = String(characters[0..<separator])
        for (offset, character) in schemeText.enumerated() {
            let valid =
                character.isASCII
                && (character.isLetter || (offset > 0 && (character.isNumber || "+-.".contains(character))))
            guard valid else {
                throw error("invalid character '\(character)' in the scheme", at: offset)
            }
        }
        let scheme = schemeText.lowercased()
        let afterSeparator = separator + 3
        guard scheme == "http" || scheme == "https" else {
            // Custom scheme: the host is the first path segment and keeps its case.
            return (scheme, nil, afterSeparator, true)
        }
        var hostEnd = afterSeparator
        while hostEnd < characters.count, characters[hostEnd] != "/", characters[hostEnd] != "(" {
            hostEnd += 1
        }
        let host = String(characters[afterSeparator..<hostEnd]).lowercased()
        guard !host.isEmpty else {
            throw error("an \(scheme) pattern needs a host, as in \(scheme)://shop.example.com/path", at: afterSeparator)
        }
        for (offset, character) in host.enumerated() where !isHostCharacter(character) {
            throw error("invalid character '\(character)' in the host", at: afterSeparator + offset)
        }
        return (scheme, try normalizingPort(of: host, at: afterSeparator), hostEnd, false)
    }

    /// `host` with its port written as a URL's port is read (RFC 3986 §6.2.3): an empty port
    /// is no port, leading zeros are dropped, so that `:0443` asks for what `:443` asks for.
    ///
    /// - Throws: ``PatternError`` for a port that is not 0–65535 in decimal digits, which no
    ///   URL could name.
    private func normalizingPort(of host: String, at hostStart: Int) throws(PatternError) -> String {
        guard RoutePattern.hostNamesPort(host), let colon = host.lastIndex(of: ":") else { return host }
        let name = String(host[..<colon])
        let digits = host[host.index(after: colon)...]
        guard !digits.isEmpty else { return name }
        let portStart = hostStart + host.distance(from: host.startIndex, to: colon) + 1
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), let port = Int(digits), port <= 65535 else {
            throw error("invalid port '\(digits)': a port is a number from 0 to 65535", at: portStart)
        }
        return "\(name):\(port)"
    }

    private func isHostCharacter(_ character: Character) -> Bool {
        if character.isLetter || character.isNumber { return true }
        return "-._~:[]%!$&'*+,;=".contains(character)
    }

    private func find(_ needle: String) -> Int? {
        let needleCharacters = Array(needle)
        guard characters.count >= needleCharacters.count else { return nil }
        for start in 0...(characters.count - needleCharacters.count)
        where Array(characters[start..<start + needleCharacters.count]) == needleCharacters {
            // Only before the first '/', so that '://' inside a path is not a scheme.
            if characters[0..<start].contains("/") { return nil }
            return start
        }
        return nil
    }

    // MARK: - Optional groups

    /// Splits the path part into text and optional groups, leaving `<…>` constraints intact.
    private func parsePieces(_ located: [Located]) throws(PatternError) -> [Piece] {
        var stack: [(pieces: [Piece], text: [Located], open: Int)] = [([], [], -1)]
        var index = 0
        while index < located.count {
            let (character, position) = located[index]
            switch character {
            case "<":
                // A constraint: copy it verbatim, its parentheses are the regex's.
                let end = try constraintEnd(in: located, openingAt: index)
                stack[stack.count - 1].text.append(contentsOf: located[index...end])
                index = end + 1
                continue
            case "(":
                // A group starts with '/' (`/search(/:query)`), or, as in JLRoutes, starts a
                // segment and ends with '/' (`/(rest/):id`); `)` checks the second form.
                let startsWithSlash = index + 1 < located.count && located[index + 1].character == "/"
                let current = stack[stack.count - 1]
                let startsASegment =
                    current.text.last?.character == "/"
                    || (current.text.isEmpty && current.pieces.last.map(Self.endsWithSlash) == true)
                guard startsWithSlash || startsASegment else {
                    throw error(Self.groupShapes, at: position)
                }
                stack.append(([], [], position))
            case ")":
                guard stack.count > 1 else {
                    throw error("unbalanced ')': no optional group is open", at: position)
                }
                let closed = stack.removeLast()
                let opensWithSlash = closed.pieces.first.map(Self.startsWithSlash) ?? (closed.text.first?.character == "/")
                let closesWithSlash =
                    closed.text.last?.character == "/" || (closed.text.isEmpty && closed.pieces.last.map(Self.endsWithSlash) == true)
                guard opensWithSlash || closesWithSlash else {
                    throw error(Self.groupShapes, at: closed.open)
                }
                var pieces = closed.pieces
                if !closed.text.isEmpty { pieces.append(.text(closed.text)) }
                let outer = stack.count - 1
                if !stack[outer].text.isEmpty {
                    stack[outer].pieces.append(.text(stack[outer].text))
                    stack[outer].text = []
                }
                stack[outer].pieces.append(.group(pieces))
            default:
                // Text after a group must start a new segment: `/a(/b)c` would glue c to b
                // (after a group that ends with '/', as `(rest/)c`, it does).
                if let last = stack[stack.count - 1].pieces.last, case .group = last, !Self.endsWithSlash(last),
                    stack[stack.count - 1].text.isEmpty, character != "/"
                {
                    throw error("text after an optional group must start with '/'", at: position)
                }
                stack[stack.count - 1].text.append(located[index])
            }
            index += 1
        }
        guard stack.count == 1 else {
            throw error("unbalanced '(': the optional group is never closed", at: stack[stack.count - 1].open)
        }
        var pieces = stack[0].pieces
        if !stack[0].text.isEmpty { pieces.append(.text(stack[0].text)) }
        return pieces
    }

    /// What an optional group may look like, for the error that refuses another shape.
    private static let groupShapes =
        "an optional group starts with '/', as in /search(/:query), or starts a segment and ends with '/', "
        + "as in JLRoutes' /(rest/)(app/):object"

    /// Whether a piece begins with '/' (a group: its first piece does).
    private static func startsWithSlash(_ piece: Piece) -> Bool {
        switch piece {
        case .text(let located): located.first?.character == "/"
        case .group(let inner): inner.first.map(startsWithSlash) ?? false
        }
    }

    /// Whether a piece ends with '/' (a group: its last piece does).
    private static func endsWithSlash(_ piece: Piece) -> Bool {
        switch piece {
        case .text(let located): located.last?.character == "/"
        case .group(let inner): inner.last.map(endsWithSlash) ?? false
        }
    }

    /// Every combination of the optional groups, groups present first.
    private func expand(_ pieces: [Piece]) -> [[Located]] {
        var results: [[Located]] = [[]]
        for piece in pieces {
            switch piece {
            case .text(let located):
                results = results.map { $0 + located }
            case .group(let inner):
                let innerExpansions = expand(inner)
                var next: [[Located]] = []
                for prefix in results {
                    for expansion in innerExpansions { next.append(prefix + expansion) }
                    next.append(prefix)
                }
                results = next
            }
            if results.count > Self.maximumExpansions { return results }
        }
        return results
    }

    /// The index of the `>` closing the constraint opened at `start`: the first `>` outside
    /// regex escapes, character classes and parentheses.
    private func constraintEnd(in located: [Located], openingAt start: Int) throws(PatternError) -> Int {
        var depth = 0
        var inClass = false
        var index = start + 1
        while index < located.count {
            let character = located[index].character
            if character == "\\" {
                index += 2
                continue
            }
            if inClass {
                if character == "]" { inClass = false }
            } else if character == "[" {
                inClass = true
            } else if character == "(" {
                depth += 1
            } else if character == ")" {
                depth = max(0, depth - 1)
            } else if character == ">" && depth == 0 {
                return index
            }
            index += 1
        }
        throw error("unterminated constraint: '<' has no matching '>'", at: located[start].position)
    }

    // MARK: - Segments

    private func parseSegments(_ located: [Located]) throws(PatternError) -> [PatternSegment] {
        var segments: [PatternSegment] = []
        var names: [String: Int] = [:]
        var catchAllPosition: Int?
        var index = 0
        while index < located.count {
            if located[index].character == "/" {
                index += 1
                continue
            }
            let start = located[index]
            if let earlier = catchAllPosition {
                throw error("a catch-all ('*') must be the last segment", at: earlier)
            }
            switch start.character {
            case ":":
                let (name, afterName) = readName(located, from: index + 1)
                guard !name.isEmpty else {
                    throw error("a parameter needs a name, as in :id", at: start.position)
                }
                var constraint: ParameterConstraint?
                index = afterName
                if index < located.count, located[index].character == "<" {
                    let end = try constraintEnd(in: located, openingAt: index)
                    let body = String(located[(index + 1)..<end].map(\.character))
                    constraint = try makeConstraint(body, at: located[index].position)
                    index = end + 1
                }
                if index < located.count, located[index].character != "/" {
                    throw error(
                        "a parameter is a whole segment; unexpected '\(located[index].character)' after ':\(name)'",
                        at: located[index].position)
                }
                try register(name, at: start.position, in: &names)
                segments.append(.parameter(name: name, constraint: constraint))
            case "*":
                let (name, afterName) = readName(located, from: index + 1)
                if afterName < located.count, located[afterName].character != "/" {
                    throw error(
                        "a catch-all is a whole segment; unexpected '\(located[afterName].character)'",
                        at: located[afterName].position)
                }
                let key = name.isEmpty ? "*" : name
                try register(key, at: start.position, in: &names)
                segments.append(.catchAll(name: key))
                catchAllPosition = start.position
                index = afterName
            default:
                var end = index
                while end < located.count, located[end].character != "/" { end += 1 }
                let raw = String(located[index..<end].map(\.character))
                // A URL's `?` or `#` never reaches its path: such a segment would match only its
                // escaped spelling, which is not what anyone writing it means.
                if let mark = located[index..<end].first(where: { $0.character == "?" || $0.character == "#" }) {
                    let (part, escape) = mark.character == "?" ? ("query", "%3F") : ("fragment", "%23")
                    throw error(
                        "'\(mark.character)' starts a URL's \(part), which patterns do not match (a pattern matches the path; "
                            + "query parameters become params); write \(escape) for a literal '\(mark.character)'",
                        at: mark.position)
                }
                guard let decoded = PercentEncoding.decode(raw, plusAsSpace: false) else {
                    throw error("invalid percent-escape or invalid UTF-8 in '\(raw)'", at: start.position)
                }
                segments.append(.literal(decoded))
                index = end
            }
        }
        return segments
    }

    private func register(_ name: String, at position: Int, in names: inout [String: Int]) throws(PatternError) {
        if names[name] != nil {
            throw error("the parameter name '\(name)' is used twice", at: position)
        }
        names[name] = position
    }

    private func readName(_ located: [Located], from start: Int) -> (String, Int) {
        var end = start
        while end < located.count {
            let character = located[end].character
            guard character.isLetter || character.isNumber || character == "_" || character == "-" else { break }
            end += 1
        }
        return (String(located[start..<end].map(\.character)), end)
    }

    private func makeConstraint(_ body: String, at position: Int) throws(PatternError) -> ParameterConstraint {
        switch body {
        case "": throw error("an empty constraint '<>'; use <int>, <uuid> or a regex", at: position)
        case "int": return .int
        case "uuid": return .uuid
        default:
            do {
                _ = try CompiledRegex(body, wholeMatch: true)
            } catch {
                throw self.error("invalid regex '\(body)': \(error)", at: position + 1)
            }
            return .regex(body)
        }
    }

}
