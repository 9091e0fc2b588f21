/// Where a link goes: the answer of `GET /resolve` and `switchboard resolve` (design.md §5).
public struct Resolution: Sendable {
    /// The URL as given.
    public let url: String
    /// The URL after rewriting; `nil` when no rule fired.
    public let rewrittenURL: String?
    /// The rules that fired, in order (empty when none).
    public let ruleIDs: [String]
    /// The route, when one matched.
    public let match: RouteMatch?
    /// Merged params: route defaults < query parameters < path captures.
    public let params: [(name: String, value: JSONValue)]
    /// The matched route's `web` template filled from ``params``; `nil` when it has none.
    public let webURL: String?
    /// Whether the app is older than the route's `minAppVersion` and should open ``webURL``
    /// instead of the native target.
    public let openWeb: Bool
    /// The expanded fallback template, for an unmatched URL when one is configured.
    public let fallback: String?
    /// How many route constraint regexes a PCRE2 limit stopped while routing (each counted as
    /// not accepting the segment). Not part of the body; for the metrics, and so that such an
    /// answer is not cached.
    public let constraintLimitHits: Int

    /// Whether a route matched.
    public var matched: Bool { match != nil }

    /// The response body, exactly the shape of design.md §5.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("matched", .bool(matched)), ("url", .string(url))]
        if let rewrittenURL { members.append(("rewrittenURL", .string(rewrittenURL))) }
        if !ruleIDs.isEmpty { members.append(("ruleIds", .array(ruleIDs.map(JSONValue.string)))) }
        if let match {
            members.append(("routeId", .string(match.route.id)))
            members.append(("module", .string(match.route.module)))
            members.append(("pattern", .string(match.pattern)))
            members.append(("target", match.route.target))
            members.append(("params", .object(params.map { (key: $0.name, value: $0.value) })))
            if let webURL { members.append(("webURL", .string(webURL))) }
            if openWeb { members.append(("openWeb", .bool(true))) }
        } else if let fallback {
            members.append(("fallback", .string(fallback)))
        }
        return .object(members)
    }

    /// The response body as compact JSON bytes: the same text as ``json`` written out, without
    /// building the intermediate tree (this runs on every `GET /resolve`).
    public var jsonBytes: [UInt8] {
        var writer = JSONWriter(capacity: 512)
        write(to: &writer)
        return writer.bytes
    }

    /// Writes the body of ``json`` member by member.
    package func write(to writer: inout JSONWriter) {
        writer.writeSyntax(matched ? #"{"matched":true,"url":"# : #"{"matched":false,"url":"#)
        writer.writeString(url)
        if let rewrittenURL {
            writer.writeSyntax(#","rewrittenURL":"#)
            writer.writeString(rewrittenURL)
        }
        if !ruleIDs.isEmpty {
            writer.writeSyntax(#","ruleIds":["#)
            for (index, id) in ruleIDs.enumerated() {
                if index > 0 { writer.writeSyntax(",") }
                writer.writeString(id)
            }
            writer.writeSyntax("]")
        }
        if let match {
            writer.writeSyntax(#","routeId":"#)
            writer.writeString(match.route.id)
            writer.writeSyntax(#","module":"#)
            writer.writeString(match.route.module)
            writer.writeSyntax(#","pattern":"#)
            writer.writeString(match.pattern)
            writer.writeSyntax(#","target":"#)
            writer.write(match.route.target)
            writer.writeSyntax(#","params":{"#)
            for (index, param) in params.enumerated() {
                if index > 0 { writer.writeSyntax(",") }
                writer.writeString(param.name)
                writer.writeSyntax(":")
                writer.write(param.value)
            }
            writer.writeSyntax("}")
            if let webURL {
                writer.writeSyntax(#","webURL":"#)
                writer.writeString(webURL)
            }
            if openWeb { writer.writeSyntax(#","openWeb":true"#) }
        } else if let fallback {
            writer.writeSyntax(#","fallback":"#)
            writer.writeString(fallback)
        }
        writer.writeSyntax("}")
    }
}
