@testable import SwitchboardCore

/// The straightforward resolve, built from the public pieces of a ``Resolver`` (the URL parser,
/// the rewrite engine, the router's string lookup) and written as a `JSONValue` tree: the
/// independent reference that the resolver's single pass over bytes must answer like, byte for
/// byte (design.md §3–§5).
struct ReferenceResolver {
    let resolver: Resolver

    /// What the reference answers for one URL.
    struct Answer: Equatable {
        let body: String
        let matched: Bool
        let routeID: String?
        let firedRuleIDs: [String]
        let ruleErrorCount: Int
        let didRewrite: Bool
    }

    /// The answer for `text`, or the refusal's message.
    func resolve(_ text: String, context: RequestContext = RequestContext()) -> Result<Answer, ReferenceRefusal> {
        let input: ParsedURL
        do {
            input = try ParsedURL.parse(text)
        } catch {
            return .failure(ReferenceRefusal(message: "invalid URL: \(error.description)"))
        }
        let outcome = resolver.rewriter.rewrite(input, context: context)
        let final = outcome.url
        let match: RouteMatch?
        var params: [(name: String, value: JSONValue)] = []
        do {
            match = try resolver.router.match(final, isAppLink: resolver.policy.isAppLink(final))
            if let match {
                params = Self.merge(defaults: match.route.defaultParams, query: try final.queryItems(), captures: match.captures)
            }
        } catch {
            return .failure(
                ReferenceRefusal(
                    message: outcome.didRewrite
                        ? "the rewritten URL \(final.string) is invalid: \(error.description)"
                        : "invalid URL: \(error.description)"))
        }
        var members: [(key: String, value: JSONValue)] = [("matched", .bool(match != nil)), ("url", .string(text))]
        if outcome.didRewrite {
            members.append(("rewrittenURL", .string(final.string)))
            members.append(("ruleIds", .array(outcome.firedRuleIDs.map(JSONValue.string))))
        }
        if let match {
            members.append(("routeId", .string(match.route.id)))
            members.append(("module", .string(match.route.module)))
            members.append(("pattern", .string(match.pattern)))
            members.append(("target", match.route.target))
            members.append(("params", .object(params.map { (key: $0.name, value: $0.value) })))
            if let web = match.route.web {
                members.append(("webURL", .string(web.expand(params))))
                if let minimum = match.route.minAppVersion.flatMap(SemanticVersion.init), let version = context.appVersion,
                    version < minimum
                {
                    members.append(("openWeb", .bool(true)))
                }
            }
        } else if let fallback = resolver.fallback {
            members.append(("fallback", .string(fallback.expand(url: input))))
        }
        return .success(
            Answer(
                body: JSONValue.object(members).jsonText, matched: match != nil, routeID: match?.route.id,
                firedRuleIDs: outcome.firedRuleIDs, ruleErrorCount: outcome.errors.count, didRewrite: outcome.didRewrite))
    }

    /// design.md §3 precedence, the plain way: route defaults < query < captures; a key keeps the
    /// position where it first appeared; repeated query keys become arrays, in order.
    static func merge(
        defaults: [(name: String, value: String)], query: [QueryItem], captures: [(name: String, value: String)]
    ) -> [(name: String, value: JSONValue)] {
        var members: [(name: String, value: JSONValue)] = []
        func set(_ name: String, _ value: JSONValue) {
            if let existing = members.firstIndex(where: { $0.name == name }) {
                members[existing].value = value
            } else {
                members.append((name, value))
            }
        }
        for item in defaults { set(item.name, .string(item.value)) }
        var groups: [(name: String, values: [String])] = []
        for item in query {
            if let index = groups.firstIndex(where: { $0.name == item.name }) {
                groups[index].values.append(item.value)
            } else {
                groups.append((item.name, [item.value]))
            }
        }
        for group in groups {
            set(group.name, group.values.count == 1 ? .string(group.values[0]) : .array(group.values.map(JSONValue.string)))
        }
        for capture in captures { set(capture.name, .string(capture.value)) }
        return members
    }
}

/// Why the reference refuses a URL.
struct ReferenceRefusal: Error, Equatable {
    let message: String
}
