import Dispatch
import SwitchboardTestSupport
import Synchronization
import Testing

@testable import SwitchboardCore

/// The resolver's one pass over bytes against an independent reference: the straightforward
/// resolve from the public pieces (``ReferenceResolver``: URL parser, rewrite engine, the
/// router's string lookup, the body written as a `JSONValue` tree). Random configs and URLs,
/// seeded, so a failure repeats; then the URLs that reach every template variable, and route
/// members that need escapes. The body, the summary, the value and `explain` must all agree.
struct ResolveDifferentialTests {
    static let words = ["a", "b", "item", "user", "second", "caf%C3%A9", "café", "x+y", "q"]
    static let keys = ["q", "id", "source", "p0", "rest", "caf%C3%A9", "café", "cafe%CC%81", "a+b", ""]

    /// A random resolver: static, constrained, `:param` and catch-all segments, patterns
    /// restricted to a scheme or host, routes with two patterns, default params that clash
    /// with query keys and captures, routes with a `web` page, rules that fire (some chained,
    /// one that gives an invalid URL, one with a condition) and, for some seeds, a fallback.
    static func randomResolver(seed: UInt64) throws -> Resolver {
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
            // Some routes have a second pattern, whose text the answer names.
            let patterns = random.next() % 5 == 0 ? [prefix + path, prefix + "/second" + path] : [prefix + path]
            let route = Route(
                id: "r\(index)", module: "m\(index % 4)", patterns: patterns,
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

    /// Resolves `url` three ways (into bytes, into a value, explained) and checks each against
    /// the reference; returns the reference's answer, or `nil` when both refuse the URL.
    @discardableResult
    static func expectSameAnswer(
        _ resolver: Resolver, _ url: String, context: RequestContext = RequestContext(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> ReferenceResolver.Answer? {
        let reference = ReferenceResolver(resolver: resolver).resolve(url, context: context)
        var body = Array("[".utf8)
        let answered = Result { () throws(ResolveError) -> ResolveSummary in
            try resolver.resolve(url, context: context, appendingBodyTo: &body)
        }
        switch (answered, reference) {
        case (.success(let summary), .success(let expected)):
            let text = String(decoding: body.dropFirst(), as: UTF8.self)
            #expect(text == expected.body, "\(url)", sourceLocation: sourceLocation)
            #expect(summary.matched == expected.matched, "\(url)", sourceLocation: sourceLocation)
            #expect(summary.routeID == expected.routeID, "\(url)", sourceLocation: sourceLocation)
            #expect(summary.firedRuleIDs == expected.firedRuleIDs, "\(url)", sourceLocation: sourceLocation)
            #expect(summary.ruleErrorCount == expected.ruleErrorCount, "\(url)", sourceLocation: sourceLocation)
            if let resolution = try? resolver.resolve(url, context: context) {
                #expect(String(decoding: resolution.jsonBytes, as: UTF8.self) == text, "\(url)", sourceLocation: sourceLocation)
                #expect(resolution.json.jsonText == text, "\(url)", sourceLocation: sourceLocation)
                #expect(resolution.match?.route.id == expected.routeID, "\(url)", sourceLocation: sourceLocation)
            } else {
                Issue.record("\(url): the value refuses what the body answers", sourceLocation: sourceLocation)
            }
            if let (explained, trace) = try? resolver.explain(url, context: context) {
                #expect(explained.jsonBytes == Array(body.dropFirst()), "\(url)", sourceLocation: sourceLocation)
                #expect(trace.router.routeID == expected.routeID, "\(url)", sourceLocation: sourceLocation)
            } else {
                Issue.record("\(url): explain refuses what the body answers", sourceLocation: sourceLocation)
            }
            return expected
        case (.failure(let error), .failure(let expected)):
            #expect(error.message == expected.message, "\(url)", sourceLocation: sourceLocation)
            #expect(body == Array("[".utf8), "\(url): a refusal appends nothing", sourceLocation: sourceLocation)
            return nil
        default:
            Issue.record("\(url): the resolver gives \(answered), the reference \(reference)", sourceLocation: sourceLocation)
            return nil
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func randomConfigsAnswerAsTheReference(seed: UInt64) throws {
        let resolver = try Self.randomResolver(seed: seed)
        var random = SplitMix(seed: seed &* 7919)
        var plain = 0
        var rewritten = 0
        for _ in 0..<1500 {
            let url = Self.url(&random)
            let context = random.next() % 2 == 0 ? RequestContext(platform: "ios") : RequestContext()
            guard let answer = Self.expectSameAnswer(resolver, url, context: context) else { continue }
            if answer.didRewrite { rewritten += 1 } else { plain += 1 }
        }
        #expect(plain > 300 && rewritten > 10, "the URLs exercise both the plain and the rewritten case")
    }

    // MARK: - Every template variable

    /// Rules whose targets use every variable, each plain, `$$` and `$#`; routes that the
    /// rewritten URLs reach; a fallback for those they do not.
    static func templateResolver() throws -> Resolver {
        var builder = ResolverBuilder(
            policy: AppLinkPolicy(schemes: ["app"], domains: ["web.example"]),
            fallback: "https://m.example/?from=$$url&s=$scheme&h=$host&p=$port&q=$$query&f=$#fragment")
        builder.add(
            Route(
                id: "parts", module: "m", patterns: ["app://parts/:scheme/*rest"],
                target: .object([("page", .string("Parts"))])))
        builder.add(Route(id: "any", module: "m", patterns: ["app://any/*rest"]))
        builder.add(rules: [
            RewriteRule(
                id: "plain", match: #"^(?i:https?)://(?i:plain)\.example(:\d*)?/([^?#]*)"#,
                target: "app://parts/$scheme/$host/p$port/$path/$2?q=$query&f=$fragment&u=$url&whole=$0&g1=$1"),
            RewriteRule(
                id: "encoded", match: #"^(?i:https?)://(?i:enc)\.example(:\d*)?/([^?#]*)"#,
                target: "app://parts/$$scheme/$$host/p$$port/$$path/$$2?q=$$query&f=$$fragment&u=$$url&s=${1}"),
            RewriteRule(
                id: "decoded", match: #"^(?i:https?)://(?i:dec)\.example(:\d*)?/([^?#]*)"#,
                target: "app://parts/$#scheme/$#host/p$#port/$#path/$#2?q=$#query&f=$#fragment&u=$#url"),
            RewriteRule(id: "custom", match: #"^(?i:app)://Keep/(.*)"#, target: "app://any/$host/$scheme/$#1"),
            RewriteRule(id: "nowhere", match: #"^app://nowhere/"#, target: "app://nothing/$path?$query"),
        ])
        return try builder.build()
    }

    /// URLs for every rule: cases, ports (empty, with leading zeros), escapes, absent parts.
    static let urls: [String] = {
        var urls: [String] = []
        for scheme in ["https", "HTTP", "hTTps"] {
            for host in ["plain", "PLAIN", "Enc", "enc", "DEC", "dec"] {
                for port in ["", ":", ":0443", ":8080"] {
                    for rest in [
                        "", "a/b", "caf%C3%A9/x%2Fy", "A%2fB?x=1&y=%E2%82%AC", "p?q=a+b#Frag%20X", "#only", "?", "x/%FF?%FF#%FF",
                    ] {
                        urls.append("\(scheme)://\(host).example\(port)/\(rest)")
                    }
                }
            }
        }
        urls += [
            "APP://Keep/a/B%20c?q#f", "app://Keep/", "app://nowhere/x?y", "app://nowhere/", "app://other/x",
            "https://nowhere.example/a?b#c",
        ]
        return urls
    }()

    @Test func rewrittenURLsAnswerAsTheReference() throws {
        let resolver = try Self.templateResolver()
        var rewritten = 0
        for url in Self.urls {
            if Self.expectSameAnswer(resolver, url)?.didRewrite == true { rewritten += 1 }
        }
        #expect(rewritten > Self.urls.count / 2, "most URLs are rewritten")
    }

    /// A `last` rule whose result is over ``RewriteEngine/maximumRewrittenBytes`` is an error
    /// (the URL before it is routed), and one just under the bound fires.
    @Test func aResultOverTheBoundIsAnError() throws {
        var builder = ResolverBuilder(policy: AppLinkPolicy(schemes: ["app"], domains: []))
        builder.add(Route(id: "any", module: "m", patterns: ["/*rest"]))
        builder.add(rules: [RewriteRule(id: "tenfold", match: "^app://t/(.*)$", target: "app://t/" + String(repeating: "$1", count: 10))])
        let resolver = try builder.build()
        let bound = RewriteEngine.maximumRewrittenBytes
        let under = "app://t/" + String(repeating: "x", count: (bound - 8) / 10)
        let over = under + "x"
        for (url, fires) in [(under, true), (over, false)] {
            let answer = try #require(Self.expectSameAnswer(resolver, url))
            #expect(answer.firedRuleIDs == (fires ? ["tenfold"] : []))
            #expect(answer.ruleErrorCount == (fires ? 0 : 1))
        }
    }

    /// Many threads resolve the same rewritten URLs at once; each answer is the one a single
    /// thread gives (the regexes' spare match data is per thread).
    @Test func concurrentRewritesAnswerAsOneThread() throws {
        let resolver = try Self.templateResolver()
        @Sendable func body(_ url: String) -> [UInt8]? {
            var body: [UInt8] = []
            return (try? resolver.resolve(url, appendingBodyTo: &body)).map { _ in body }
        }
        let expected = Self.urls.map(body)
        let mismatches = Tally()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<40 {
                for (index, url) in Self.urls.enumerated() where (index + round + thread) % 3 != 0 {
                    if body(url) != expected[index] { mismatches.count.add(1, ordering: .relaxed) }
                }
            }
        }
        #expect(mismatches.count.load(ordering: .relaxed) == 0)
    }

    // MARK: - Route members written once per module and target

    static let modules = ["shop", "quote\"d", "back\\slash", "tab\there", "café €", ""]
    static let targets: [JSONValue] = [
        .object([("page", .string("Item"))]),
        .object([]),
        .object([("a", .array([.number(1), .number(-2.5), .bool(true), .null])), ("b", .string("line\nbreak \u{1}"))]),
        .string("plain \"target\""),
        .array([]),
        .number(42),
        .null,
    ]

    /// `count` routes `/rN/:id` (and `/alt/rN/:id` for every third), their module and target
    /// taken from the lists above with the strides `moduleStride` and `targetStride`.
    static func membersResolver(count: Int, moduleStride: Int, targetStride: Int, reversed: Bool) throws -> Resolver {
        var builder = ResolverBuilder(policy: AppLinkPolicy(schemes: ["app"], domains: []))
        var indices = Array(0..<count)
        if reversed { indices.reverse() }
        for index in indices {
            let patterns = index % 3 == 0 ? ["/r\(index)/:id", "/alt/r\(index)/:id"] : ["/r\(index)/:id"]
            builder.add(
                Route(
                    id: "route \"\(index)\"", module: modules[(index * moduleStride) % modules.count], patterns: patterns,
                    target: targets[(index * targetStride) % targets.count]))
        }
        return try builder.build()
    }

    static func checkMembers(_ resolver: Resolver, count: Int) {
        for index in 0..<count {
            for url in ["app://r\(index)/7?q=1", "app://alt/r\(index)/8"] where index % 3 == 0 || !url.contains("alt") {
                #expect(Self.expectSameAnswer(resolver, url)?.matched == true, "\(url)")
            }
        }
    }

    @Test func membersAnswerAsTheReference() throws {
        Self.checkMembers(try Self.membersResolver(count: 30, moduleStride: 1, targetStride: 1, reversed: false), count: 30)
    }

    @Test func membersFollowARouteChange() throws {
        let before = try Self.membersResolver(count: 30, moduleStride: 1, targetStride: 1, reversed: false)
        let after = try Self.membersResolver(count: 30, moduleStride: 5, targetStride: 3, reversed: true)
        Self.checkMembers(before, count: 30)
        Self.checkMembers(after, count: 30)
    }

    /// More params than the merge scans linearly: the same members, in the same order, through
    /// its index of names.
    @Test func manyParamsAnswerAsTheReference() throws {
        var builder = ResolverBuilder(policy: AppLinkPolicy(schemes: ["app"], domains: []))
        builder.add(
            Route(
                id: "item", module: "shop", patterns: ["/item/:c/*rest"], defaultParams: [("a", "default"), ("b", "default")]))
        let resolver = try builder.build()
        let padding = (0..<24).map { "p\($0)=\($0)" }.joined(separator: "&")
        for query in ["b=1&c=2&b=3", "b=1&c=2&\(padding)&b=3&caf%C3%A9=1&cafe%CC%81=2"] {
            let answer = try #require(Self.expectSameAnswer(resolver, "app://item/captured/x/y?\(query)"))
            #expect(answer.body.contains(#""params":{"a":"default","b":["1","3"],"c":"captured""#), "\(answer.body)")
        }
    }

    /// A route found by its second pattern is answered with that pattern's text, and a catch-all
    /// with the rest of the path; written from the router's tables.
    @Test func secondPatternAndCatchAll() throws {
        var builder = ResolverBuilder(policy: AppLinkPolicy(schemes: ["app"], domains: ["web.example"]))
        builder.add(
            Route(
                id: "item", module: "shop", patterns: ["/item/:id<int>", "/i/:id<int>"],
                target: .object([("page", .string("Item"))]), defaultParams: [("id", "0"), ("from", "app")]))
        builder.add(Route(id: "files", module: "docs", patterns: ["/files/*path"]))
        let resolver = try builder.build()
        let expected = [
            "app://i/42?from=push&from=mail":
                #"{"matched":true,"url":"app://i/42?from=push&from=mail","routeId":"item","module":"shop","pattern":"/i/:id<int>","target":{"page":"Item"},"params":{"id":"42","from":["push","mail"]}}"#,
            "https://WEB.example/files/a%2Fb/c%20d/":
                #"{"matched":true,"url":"https://WEB.example/files/a%2Fb/c%20d/","routeId":"files","module":"docs","pattern":"/files/*path","target":{},"params":{"path":"a/b/c d"}}"#,
        ]
        for (url, body) in expected {
            var buffer: [UInt8] = []
            let summary = try resolver.resolve(url, appendingBodyTo: &buffer)
            #expect(String(decoding: buffer, as: UTF8.self) == body)
            #expect(buffer == (try resolver.resolve(url).jsonBytes))
            #expect(summary.matched && summary.status == 200 && summary.firedRuleIDs.isEmpty)
        }
    }

    /// An answer for which a rule with a time window was tried depends on the clock (no cache
    /// may keep it); an answer no such rule could concern does not, nor does a rule without one.
    @Test func aTimeWindowTriedMakesTheAnswerDependOnTheClock() throws {
        var builder = ResolverBuilder(policy: AppLinkPolicy(schemes: ["app"], domains: []))
        builder.add(Route(id: "any", module: "m", patterns: ["/*rest"]))
        builder.add(rules: [
            RewriteRule(id: "plain", match: "^app://plain/", target: "app://any/plain"),
            RewriteRule(
                id: "sale", match: "^app://sale/", target: "app://any/sale",
                when: RuleCondition(activeFrom: "2026-11-11T00:00:00Z", activeUntil: "2026-11-12T00:00:00Z")),
        ])
        let resolver = try builder.build()
        let inWindow = RequestContext(now: RequestContext.seconds(rfc3339: "2026-11-11T10:00:00Z"))
        for (url, depends) in [("app://sale/1", true), ("app://plain/1", false), ("app://other/1", false)] {
            for context in [inWindow, RequestContext()] {
                var body: [UInt8] = []
                let summary = try resolver.resolve(url, context: context, appendingBodyTo: &body)
                #expect(summary.dependsOnClock == depends, "\(url)")
                #expect(summary.isRepeatable == !depends, "\(url)")
            }
        }
    }
}

/// A count that threads add to.
private final class Tally: Sendable {
    let count = Atomic<Int>(0)
}
