/// Compiles template text into ``RewriteTemplate/Segment``s; see ``RewriteTemplate`` for the
/// syntax. Scans UTF-8 bytes: every syntax character is ASCII, so multi-byte characters only
/// ever land in literals.
struct TemplateParser {
    private let source: String
    private let bytes: [UInt8]
    /// The regex's capture groups; `nil` when the template has no regex (the fallback).
    private let captureCount: Int?
    private var index = 0
    private var segments: [RewriteTemplate.Segment] = []
    private var literal: [UInt8] = []

    /// Named variables, by the name written after `$`.
    private static let names: [String: RewriteTemplate.Variable] = [
        "scheme": .scheme, "host": .host, "port": .port, "path": .path,
        "query": .query, "fragment": .fragment, "url": .url,
    ]
    private static let knownList = "$scheme, $host, $port, $path, $query, $fragment, $url, $0…$9, ${N}"

    init(source: String, captureCount: Int?) {
        self.source = source
        self.bytes = Array(source.utf8)
        self.captureCount = captureCount
    }

    mutating func parse() throws(TemplateError) -> [RewriteTemplate.Segment] {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"):
                let next = index + 1 < bytes.count ? bytes[index + 1] : nil
                if next == UInt8(ascii: "$") || next == UInt8(ascii: "\\"), let next {
                    literal.append(next)
                    index += 2
                } else {
                    literal.append(UInt8(ascii: "\\"))
                    index += 1
                }
            case UInt8(ascii: "$"):
                let (variable, transform) = try parseReference()
                flushLiteral()
                segments.append(.variable(variable, transform))
            default:
                literal.append(bytes[index])
                index += 1
            }
        }
        flushLiteral()
        return segments
    }

    private mutating func flushLiteral() {
        if !literal.isEmpty {
            segments.append(.literal(literal))
            literal = []
        }
    }

    /// Parses `$`, `$$` or `$#` and the reference after it, leaving `index` after it.
    private mutating func parseReference() throws(TemplateError) -> (RewriteTemplate.Variable, RewriteTemplate.Transform) {
        let start = index
        index += 1
        var transform = RewriteTemplate.Transform.none
        var prefix = "$"
        if index < bytes.count, bytes[index] == UInt8(ascii: "$") {
            transform = .queryEncoded
            prefix = "$$"
            index += 1
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "#") {
            transform = .percentDecoded
            prefix = "$#"
            index += 1
        }
        guard index < bytes.count else {
            throw error(
                "`\(prefix)` at the end of the template must be followed by a variable (\(Self.knownList)); "
                    + "write `\\$` for a literal dollar", at: start)
        }
        let byte = bytes[index]
        if isDigit(byte) {
            index += 1
            return (try group(Int(byte - UInt8(ascii: "0")), written: "\(prefix)\(byte - UInt8(ascii: "0"))", at: start), transform)
        }
        if byte == UInt8(ascii: "{") {
            return (try parseBraced(prefix: prefix, start: start), transform)
        }
        if isNameStart(byte) {
            let nameStart = index
            while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
            return (try named(name, written: "\(prefix)\(name)", at: start), transform)
        }
        throw error(
            "`\(prefix)` must be followed by a variable (\(Self.knownList)); write `\\$` for a literal dollar",
            at: start)
    }

    /// Parses `{N}` or `{name}` after the prefix.
    private mutating func parseBraced(prefix: String, start: Int) throws(TemplateError) -> RewriteTemplate.Variable {
        let contentStart = index + 1
        guard let close = bytes[contentStart...].firstIndex(of: UInt8(ascii: "}")) else {
            throw error("unclosed `\(prefix){`: add the closing `}`", at: start)
        }
        index = close + 1
        let content = bytes[contentStart..<close]
        let text = String(decoding: content, as: UTF8.self)
        if content.isEmpty {
            throw error("empty `\(prefix){}`: put a group number or variable name inside", at: start)
        }
        if content.allSatisfy(isDigit) {
            // Anything longer than 9 digits is certainly above the group count.
            let number = content.count > 9 ? Int.max : Int(text) ?? Int.max
            return try group(number, written: "\(prefix){\(text)}", at: start)
        }
        if let first = content.first, isNameStart(first), content.allSatisfy(isNameByte) {
            return try named(text, written: "\(prefix){\(text)}", at: start)
        }
        throw error(
            "`\(prefix){\(text)}` is not a group number or variable name (\(Self.knownList))", at: start)
    }

    private func group(_ number: Int, written: String, at start: Int) throws(TemplateError) -> RewriteTemplate.Variable {
        guard let captureCount else {
            guard number == 0 else {
                throw error(
                    "`\(written)` refers to a capture group, and a fallback has none (it matches no regex); "
                        + "use $scheme, $host, $port, $path, $query, $fragment or $url", at: start)
            }
            return .group(number)
        }
        guard number <= captureCount else {
            let groups = captureCount == 1 ? "1 capture group" : "\(captureCount) capture groups"
            throw error("`\(written)` refers to a group the regex does not have (it has \(groups))", at: start)
        }
        return .group(number)
    }

    private func named(_ name: String, written: String, at start: Int) throws(TemplateError) -> RewriteTemplate.Variable {
        guard let variable = Self.names[name] else {
            throw error(
                "unknown variable `\(written)`; known: \(Self.knownList) (use `${name}` to follow a variable "
                    + "with letters, `\\$` for a literal dollar)", at: start)
        }
        return variable
    }

    private func error(_ message: String, at byteOffset: Int) -> TemplateError {
        TemplateError(
            message: message,
            offset: String(decoding: bytes[..<byteOffset], as: UTF8.self).count)
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private func isNameStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte == UInt8(ascii: "_")
    }

    private func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || isDigit(byte)
    }
}
