/// A route's `web` URL: an absolute `http(s)` URL template whose `:name` placeholders are
/// filled from the route's merged params.
///
/// Placeholders are recognised only after the authority (in the path, query and fragment), so
/// the scheme, host and port are always the template's own. Each value is percent-encoded
/// except RFC 3986 unreserved characters (`ALPHA DIGIT - . _ ~`), so a capture can never
/// inject `/`, `//host`, `@`, `\`, `?`, `#` or a scheme.
///
/// ```swift
/// let web = WebURLTemplate("https://m.example.com/p/:id?ref=:source")
/// web.expand([("id", .string("4 2/x")), ("source", .string("mail"))])
/// // "https://m.example.com/p/4%202%2Fx?ref=mail"
/// ```
public struct WebURLTemplate: Sendable, Hashable, CustomStringConvertible {
    /// One piece of the template: literal text, or a placeholder to fill.
    enum Piece: Sendable, Hashable {
        case literal(String)
        case parameter(String)
    }

    /// The template as written.
    public let text: String
    let pieces: [Piece]

    /// Splits a template into literal text and `:name` placeholders (name: letters, digits,
    /// `_`, `-`). Never fails; ``validate(knownParameters:)`` checks the result.
    public init(_ text: String) {
        self.text = text
        var pieces: [Piece] = []
        let scalars = Array(text.unicodeScalars)
        // Placeholders start after the authority: the first `/`, `?` or `#` after `://`
        // (or after the scheme's `:` when there is no authority).
        var index = 0
        if let separator = (0..<max(scalars.count - 2, 0)).first(where: {
            scalars[$0] == ":" && scalars[$0 + 1] == "/" && scalars[$0 + 2] == "/"
        }) {
            index = separator + 3
        }
        while index < scalars.count, !"/?#".unicodeScalars.contains(scalars[index]) { index += 1 }
        var literal = String(String.UnicodeScalarView(scalars[..<index]))
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == ":" {
                var end = index + 1
                while end < scalars.count, Self.isNameCharacter(scalars[end]) { end += 1 }
                if end > index + 1 {
                    if !literal.isEmpty { pieces.append(.literal(literal)) }
                    literal = ""
                    pieces.append(.parameter(String(String.UnicodeScalarView(scalars[(index + 1)..<end]))))
                    index = end
                    continue
                }
            }
            literal.unicodeScalars.append(scalar)
            index += 1
        }
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        self.pieces = pieces
    }

    public var description: String { text }

    /// The placeholder names, in order of appearance (repeats included).
    public var parameterNames: [String] {
        pieces.compactMap { if case .parameter(let name) = $0 { name } else { nil } }
    }

    /// Checks that the template is an absolute `http`/`https` URL with a host and no
    /// userinfo (parsed by ``ParsedURL``, each placeholder standing for a plain value), and
    /// that every placeholder names a known param.
    ///
    /// - Parameter knownParameters: the route's capture names and default param names.
    /// - Throws: a message saying what is wrong.
    package func validate(knownParameters: Set<String>) throws(WebURLTemplateError) {
        let sample = pieces.map { piece in
            switch piece {
            case .literal(let text): text
            case .parameter: "x"
            }
        }.joined()
        let url: ParsedURL
        do {
            url = try ParsedURL.parse(sample)
        } catch {
            throw WebURLTemplateError(message: "web '\(text)' is not a valid URL: \(error.description)")
        }
        guard url.isHTTP else {
            throw WebURLTemplateError(message: "web '\(text)' must be an absolute http or https URL")
        }
        guard let host = url.host, !host.isEmpty else {
            throw WebURLTemplateError(message: "web '\(text)' has no host")
        }
        guard url.userinfo == nil else {
            throw WebURLTemplateError(message: "web '\(text)' must not have userinfo (user@)")
        }
        for name in parameterNames where !knownParameters.contains(name) {
            let known = knownParameters.sorted().map { ":\($0)" }.joined(separator: ", ")
            throw WebURLTemplateError(
                message: "web '\(text)' uses :\(name), which the route's patterns and params do not define"
                    + (known.isEmpty ? "" : " (known: \(known))"))
        }
    }

    /// Fills the template. A param with several values (a repeated query key) gives its first
    /// value; a param without a value (an optional group that was absent) gives an empty string.
    ///
    /// - Parameter params: the route's merged params.
    /// - Returns: the URL, every value percent-encoded except unreserved characters.
    public func expand(_ params: [(name: String, value: JSONValue)]) -> String {
        var out = ""
        for piece in pieces {
            switch piece {
            case .literal(let text):
                out += text
            case .parameter(let name):
                let value: String
                switch params.last(where: { $0.name == name })?.value {
                case .string(let text)?: value = text
                case .array(let values)?: value = values.first?.stringValue ?? ""
                default: value = ""
                }
                out += PercentEncoding.percentEncodedForQueryValue(value)
            }
        }
        return out
    }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "-": true
        default: false
        }
    }
}

/// Why a route's `web` template was refused.
public struct WebURLTemplateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, naming the template.
    public let message: String
    public var description: String { message }
}
