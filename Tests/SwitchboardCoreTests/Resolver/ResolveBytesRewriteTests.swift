import Dispatch
import Synchronization
import Testing

@testable import SwitchboardCore

/// The byte path on URLs that a rule rewrites, against the full path: every template variable
/// and transform read from the URL's bytes (a scheme and an http host to lowercase, a port
/// written with leading zeros, absent parts, escapes), the fallback expanded from the input's
/// bytes, and the same resolver used from many threads at once (the regexes' spare match data).
struct ResolveBytesRewriteTests {
    /// Rules whose targets use every variable, each plain, `$$` and `$#`; routes that the
    /// rewritten URLs reach; a fallback for those they do not.
    static func resolver() throws -> Resolver {
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

    /// What the byte path answers for `url`: the body and the summary's fields.
    static func fast(_ resolver: Resolver, _ url: String) -> (body: [UInt8], rules: [String], route: String?)? {
        var body: [UInt8] = []
        guard let summary = try? resolver.resolve(url, appendingBodyTo: &body) else { return nil }
        return (body, summary.firedRuleIDs, summary.routeID)
    }

    /// A `last` rule whose result is over ``RewriteEngine/maximumRewrittenBytes`` is an error
    /// on both paths alike, and one just under the bound fires on both.
    @Test func aResultOverTheBoundIsAnErrorOnBothPaths() throws {
        var builder = ResolverBuilder(policy: AppLinkPolicy(schemes: ["app"], domains: []))
        builder.add(Route(id: "any", module: "m", patterns: ["/*rest"]))
        builder.add(rules: [RewriteRule(id: "tenfold", match: "^app://t/(.*)$", target: "app://t/" + String(repeating: "$1", count: 10))])
        let resolver = try builder.build()
        let bound = RewriteEngine.maximumRewrittenBytes
        let under = "app://t/" + String(repeating: "x", count: (bound - 8) / 10)
        let over = under + "x"
        for (url, fires) in [(under, true), (over, false)] {
            let (resolution, outcome) = try resolver.resolveWithOutcome(url)
            #expect(outcome.steps.count == (fires ? 1 : 0))
            #expect(outcome.errors.count == (fires ? 0 : 1))
            let answer = try #require(Self.fast(resolver, url))
            #expect(answer.body == resolution.jsonBytes)
            #expect(answer.rules == outcome.firedRuleIDs)
        }
    }

    @Test func rewrittenURLsAnswerAsTheFullPath() throws {
        let resolver = try Self.resolver()
        var rewritten = 0
        for url in Self.urls {
            guard let (resolution, outcome) = try? resolver.resolveWithOutcome(url) else {
                #expect(Self.fast(resolver, url) == nil, "\(url): the full path refuses it")
                continue
            }
            let answer = try #require(Self.fast(resolver, url), "\(url)")
            #expect(String(decoding: answer.body, as: UTF8.self) == resolution.json.jsonText, "\(url)")
            #expect(answer.body == resolution.jsonBytes, "\(url)")
            #expect(answer.rules == outcome.firedRuleIDs, "\(url)")
            #expect(answer.route == resolution.match?.route.id, "\(url)")
            if !outcome.steps.isEmpty { rewritten += 1 }
        }
        #expect(rewritten > Self.urls.count / 2, "most URLs are rewritten")
    }

    /// Many threads resolve the same rewritten URLs at once; each answer is the one a single
    /// thread gives.
    @Test func concurrentRewritesAnswerAsOneThread() throws {
        let resolver = try Self.resolver()
        let expected = Self.urls.map { Self.fast(resolver, $0)?.body }
        let mismatches = Tally()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<40 {
                for (index, url) in Self.urls.enumerated() where (index + round + thread) % 3 != 0 {
                    if Self.fast(resolver, url)?.body != expected[index] { mismatches.count.add(1, ordering: .relaxed) }
                }
            }
        }
        #expect(mismatches.count.load(ordering: .relaxed) == 0)
    }
}

/// A count that threads add to.
private final class Tally: Sendable {
    let count = Atomic<Int>(0)
}
