import Foundation
import SwitchboardCore

/// Sample URLs for lints: a URL a pattern accepts, and a rewrite target filled with values.
enum PatternSample {
    /// Values tried, in order, for a param (the first one its constraint accepts is used).
    static let candidates = [
        "sample", "42", "-7", "3f2504e0-4f89-41d3-9a0c-0305e82c3301", "SAMPLE12", "sample-1", "card", "open",
        "sample_token_0123456789", "a", "0",
    ]

    /// Whether a param with this constraint accepts the decoded segment `value` (the router's rules).
    static func accepts(_ constraint: ParameterConstraint?, _ value: String) -> Bool {
        switch constraint {
        case nil: return !value.isEmpty
        case .int?: return value.first != "+" && Int64(value) != nil
        case .uuid?: return value.utf8.count == 36 && UUID(uuidString: value) != nil
        case .regex(let source)?:
            guard let regex = try? CompiledRegex(source, wholeMatch: true) else { return false }
            var value = value
            return value.withUTF8 { regex.fullyMatches($0) }
        }
    }

    /// A URL the pattern accepts, or `nil` when a regex constraint takes none of the samples or
    /// a path-only pattern has no scheme or domain to link with. `port` is written after the
    /// host of a pattern with a host (which must not name a port of its own).
    static func url(for pattern: RoutePattern, schemes: [String], domains: [String], port: Int? = nil) -> String? {
        var segments: [String] = []
        for segment in pattern.segments {
            switch segment {
            case .literal(let text):
                segments.append(PercentEncoding.percentEncodedForQueryValue(text))
            case .parameter(_, let constraint):
                guard let value = candidates.first(where: { accepts(constraint, $0) }) else { return nil }
                segments.append(value)
            case .catchAll:
                segments.append("sample/rest")
            }
        }
        let path = segments.joined(separator: "/")
        switch (pattern.scheme, pattern.host) {
        case (let scheme?, let host?): return "\(scheme)://\(host)\(port.map { ":\($0)" } ?? "")/\(path)"
        case (let scheme?, nil): return "\(scheme)://\(path)"
        case (nil, _):
            if let scheme = schemes.first { return "\(scheme)://\(path)" }
            if let domain = domains.first { return "https://\(domain)/\(path)" }
            return nil
        }
    }

    /// The template with every variable replaced by a plausible value (`value` for groups),
    /// or `nil` when the target is built from the whole input (`$url`, or it starts with a variable).
    static func fill(template: String, value: String) -> String? {
        guard !template.hasPrefix("$"), !template.contains("$url") else { return nil }
        var result = ""
        var characters = Substring(template)
        while let first = characters.first {
            characters = characters.dropFirst()
            if first == "\\", characters.first == "$" {
                result.append("$")
                characters = characters.dropFirst()
                continue
            }
            guard first == "$" else {
                result.append(first)
                continue
            }
            if characters.first == "$" || characters.first == "#" { characters = characters.dropFirst() }
            if characters.first == "{" {
                characters = characters.drop { $0 != "}" }.dropFirst()
                result += value
            } else if characters.first?.isNumber == true {
                characters = characters.drop { $0.isNumber }
                result += value
            } else {
                let name = characters.prefix { $0.isLetter }
                characters = characters.dropFirst(name.count)
                switch name {
                case "scheme": result += "https"
                case "host": result += "example.com"
                case "path": result += "/sample"
                case "port", "query", "fragment": break
                default: result += value
                }
            }
        }
        return result
    }
}
