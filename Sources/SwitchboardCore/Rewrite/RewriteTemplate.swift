/// A rewrite target (or fallback) template, compiled once into literal and variable segments.
///
/// Syntax (design.md §4):
/// - `$scheme $host $port $path $query $fragment $url`: parts of the URL the rule matched;
///   an absent part is the empty string. `${name}` is the same with explicit braces, for a
///   variable followed by letters (`${host}name`).
/// - `$0` is the whole match; `$1`…`$9` are capture groups (exactly one digit, so `$12` is
///   group 1 then a literal `2` and `$1a` is group 1 then `a`); `${N}` is group `N` for any
///   `N`. A group that did not participate is empty.
/// - A variable name is the longest run of `A-Z a-z 0-9 _`: `$hostname` is the unknown
///   variable `hostname`, not `$host` then `name`.
/// - `$$` before a variable (`$$1`, `$$query`, `$${12}`) inserts its value percent-encoded for
///   use as a query value (everything except `A-Z a-z 0-9 - . _ ~`); `$#` inserts it
///   percent-decoded (`+` stays `+`; a value with a bad escape, or that would decode to
///   invalid UTF-8, is inserted unchanged).
/// - `\$` is a literal `$`, `\\` a literal backslash; any other `\` stays as written.
///
/// Example: `app://search?q=$$1&from=$host` with `(?:https://)?www.shop.com/search/(.*)`
/// on `https://www.shop.com/search/red shoes` gives `app://search?q=red%20shoes&from=www.shop.com`.
package struct RewriteTemplate: Sendable, Hashable {
    /// A value a template can insert.
    package enum Variable: Sendable, Hashable {
        case scheme, host, port, path, query, fragment, url
        /// Capture group `N`; 0 is the whole match.
        case group(Int)
    }

    /// How a variable's value is transformed before insertion.
    package enum Transform: Sendable, Hashable {
        /// `$name`: as is.
        case none
        /// `$$name`: percent-encoded for a query value.
        case queryEncoded
        /// `$#name`: percent-decoded.
        case percentDecoded
    }

    /// One piece of a compiled template.
    package enum Segment: Sendable, Hashable {
        case literal([UInt8])
        case variable(Variable, Transform)
    }

    /// The template text as written.
    package let source: String
    /// The compiled segments, in order.
    package let segments: [Segment]
    /// The highest capture group referenced (0 when only `$0` or none).
    package let highestGroup: Int
    /// Whether some variable is percent-decoded (`$#x`): the only way an expansion of valid
    /// UTF-8 can give bytes that are not (a decoded `%FF`).
    let decodesEscapes: Bool

    /// Compiles `source`.
    /// - Parameter captureCount: the capture groups of the rule's regex; a reference above it
    ///   is refused. `nil` for a template that is not tied to a regex (the fallback): only `$0`
    ///   (always empty) may be named then.
    /// - Throws: ``TemplateError`` with the offset of the offending `$`.
    package init(_ source: String, captureCount: Int?) throws(TemplateError) {
        var parser = TemplateParser(source: source, captureCount: captureCount)
        self.segments = try parser.parse()
        self.source = source
        self.highestGroup = segments.reduce(0) { highest, segment in
            if case .variable(.group(let number), _) = segment { max(highest, number) } else { highest }
        }
        self.decodesEscapes = segments.contains { segment in
            if case .variable(_, .percentDecoded) = segment { true } else { false }
        }
    }

    /// Expands the template for a rule that matched.
    /// - Parameters:
    ///   - url: the URL the rule matched (source of `$scheme`, `$host`, …).
    ///   - subject: the UTF-8 bytes the regex ran on (`url.string`), source of group values.
    ///   - match: the group ranges in `subject`; `nil` makes every group empty.
    package func expand(url: ParsedURL, subject: UnsafeBufferPointer<UInt8>, match: RegexMatch?) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(source.utf8.count + subject.count)
        for segment in segments {
            switch segment {
            case .literal(let bytes):
                output.append(contentsOf: bytes)
            case .variable(.group(let number), let transform):
                if let range = match?[number] {
                    Self.append(subject[range], transform, to: &output)
                }
            case .variable(let variable, let transform):
                Self.append(Self.value(of: variable, in: url).utf8, transform, to: &output)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Expands the template for `url` alone, with every group empty (the fallback template).
    package func expand(url: ParsedURL) -> String {
        var subject = url.string
        return subject.withUTF8 { expand(url: url, subject: $0, match: nil) }
    }

    private static func value(of variable: Variable, in url: ParsedURL) -> String {
        switch variable {
        case .scheme: url.scheme
        case .host: url.host ?? ""
        case .port: url.port.map { String($0) } ?? ""
        case .path: url.path
        case .query: url.query ?? ""
        case .fragment: url.fragment ?? ""
        case .url: url.string
        case .group: ""
        }
    }

    private static func append(_ value: some Collection<UInt8>, _ transform: Transform, to output: inout [UInt8]) {
        switch transform {
        case .none: output.append(contentsOf: value)
        case .queryEncoded: withBytes(of: value) { PercentEncoding.appendEncodedForQueryValue($0, to: &output) }
        case .percentDecoded: withBytes(of: value) { PercentEncoding.appendDecodedLeniently($0, to: &output) }
        }
    }

    /// Calls `body` with the bytes of `value`, copied only when they are not contiguous.
    private static func withBytes(of value: some Collection<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if value.withContiguousStorageIfAvailable(body) == nil {
            Array(value).withUnsafeBufferPointer(body)
        }
    }
}

extension RewriteTemplate: CustomStringConvertible {
    package var description: String { source }
}
