import Testing

@testable import SwitchboardCore

/// The byte path (``Resolver/resolve(_:context:appendingJSONTo:)``, which answers common
/// requests from ranges into the URL) against the straightforward one: the resolution of
/// ``Resolver/resolveWithOutcome(_:context:)`` written as a `JSONValue` tree, and the route
/// that the `explain` walk reaches. Random configs and URLs, seeded, so a failure repeats.
struct ResolveBytesDifferentialTests {
    static let words = ["a", "b", "item", "user", "caf%C3%A9", "café", "x+y", "q"]
    static let keys = ["q", "id", "source", "p0", "rest", "caf%C3%A9", "café", "cafe%CC%81", "a+b", ""]

    /// A random resolver: static, constrained, `:param` and catch-all segments, patterns
    /// restricted to a scheme or host, default params that clash with query keys and
    /// captures, routes with a `web` page, rules that fire (some chained) and a fallback.
    static func resolver(seed: UInt64) throws -> Resolver {
        var random = SplitMix(seed: seed)
        var builder = ResolverBuilder(
            policy: AppLinkPolicy(schemes: ["app"], domains: ["web.example"]),
            fallback: random.next() % 2 == 0 ? "https://m.example/?from=$$url&p=$path" : nil)
        for index in 0..<60 {
            var segments: [String] = []
            for position in 0..<(1 + Int(random.next() % 3)) {
                switch random.next() % 6 {
                case 0: segments.append(":p\(position)")
                case 1: segments.append(":p\(position)<int>")
                case 2 where position > 0: segments.append("*rest")
                default: segments.append(words[Int(random.next() % UInt64(words.count))])
                }
                if segments.last == "*rest" { break }
            }
            let path = "/" + segments.joined(separator: "/")
            let prefix = ["", "", "", "app:/", "https://web.example", "https://other.example:8443"][Int(random.next() % 6)]
            let defaults = (0..<Int(random.next() % 3)).map { _ in
                (name: keys[Int(random.next() % UInt64(keys.count))], value: "d\(random.next() % 10)")
            }
            let route = Route(
                id: "r\(index)", module: "m\(index % 4)", patterns: [prefix + path],
                target: .object([("page", .string("P\(index)")), ("n", .number(Double(index)))]), defaultParams: defaults,
                web: random.next() % 8 == 0 ? WebURLTemplate("https://web.example/r\(index)") : nil)
            var probe = builder
            probe.add(route)
            if probe.issues.count == builder.issues.count { builder = probe }
        }
        builder.add(rules: [
            RewriteRule(id: "web", match: #"^https://www\.web\.example/(.*)$"#, target: "app://$1"),
            RewriteRule(id: "chain", match: "^app://old/", target: "app://a/", last: false),
            RewriteRule(id: "after-chain", match: "^app://a/b", target: "app://item/$$url"),
            RewriteRule(id: "broken", match: "^app://broken/", target: "app://%ZZ"),
            RewriteRule(id: "ios-only", match: "^app://user/", target: "app://a", when: RuleCondition(platform: ["ios"])),
        ])
        return try builder.build()
    }

    /// A random URL over the same words, with query keys that clash, escapes, `+`, repeats.
    static func url(_ random: inout SplitMix) -> String {
        let scheme = ["app", "APP", "https", "HTTPS", "http", "other"][Int(random.next() % 6)]
        let host = ["web.example", "WEB.Example", "www.web.example", "other.example:8443", "old", "broken", "a", "item"][
            Int(random.next() % 8)]
        var path = (0..<Int(random.next() % 4)).map { _ in
            [words[Int(random.next() % UInt64(words.count))], "\(random.next() % 1000)", "", "%FF", "%2F"][
                Int(random.next() % 5)]
        }.joined(separator: "/")
        if random.next() % 10 == 0 { path += "/" }
        var url = scheme + "://" + host + (path.isEmpty ? "" : "/" + path)
        if random.next() % 3 != 0 {
            let items = (0..<Int(random.next() % 5)).map { _ in
                let key = keys[Int(random.next() % UInt64(keys.count))]
                return random.next() % 5 == 0 ? key : key + "=" + ["v", "a+b", "%20x", "%E2%82%AC", "%FF", ""][Int(random.next() % 6)]
            }
            url += "?" + items.joined(separator: "&")
        }
        if random.next() % 6 == 0 { url += "#frag" }
        return url
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func bytePathAnswersAsTheReference(seed: UInt64) throws {
        let resolver = try Self.resolver(seed: seed)
        var random = SplitMix(seed: seed &* 7919)
        var writer = JSONWriter()
        var fastAnswers = 0
        for _ in 0..<1500 {
            let url = Self.url(&random)
            let context = random.next() % 2 == 0 ? RequestContext(platform: "ios") : RequestContext()
            writer.removeAll()
            writer.writeSyntax("[")
            let reference = Result { () throws(ResolveError) -> (Resolution, RewriteOutcome) in
                try resolver.resolveWithOutcome(url, context: context)
            }
            let fast = Result { () throws(ResolveError) -> ResolveSummary in
                try resolver.resolve(url, context: context, appendingJSONTo: &writer)
            }
            switch (fast, reference) {
            case (.success(let summary), .success((let resolution, let outcome))):
                let body = Array(writer.bytes.dropFirst())
                #expect(body == resolution.jsonBytes, "\(url)")
                #expect(String(decoding: body, as: UTF8.self) == resolution.json.jsonText, "\(url)")
                #expect(summary.matched == resolution.matched, "\(url)")
                #expect(summary.routeID == resolution.match?.route.id, "\(url)")
                #expect(summary.firedRuleIDs == outcome.firedRuleIDs, "\(url)")
                #expect(summary.ruleErrorCount == outcome.errors.count, "\(url)")
                let trace = try resolver.explain(url, context: context).1
                #expect(trace.router.routeID == resolution.match?.route.id, "\(url)")
                if outcome.steps.isEmpty, outcome.errors.isEmpty { fastAnswers += 1 }
            case (.failure(let error), .failure(let expected)):
                #expect(error.message == expected.message, "\(url)")
                #expect(writer.bytes == Array("[".utf8), "\(url): a refusal appends nothing")
            default:
                Issue.record("\(url): the byte path gives \(fast), the reference \(reference)")
            }
        }
        #expect(fastAnswers > 300, "the URLs exercise the common case")
    }
}
