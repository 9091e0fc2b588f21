import PropertyBased
import Testing

@testable import SwitchboardCore

/// The association files against the router over generated route tables: both files,
/// evaluated with each platform's matching rules (``AppLinkMatchers``) on many URLs, open the
/// app only where the router sends the URL to an app route.
struct AppLinkPropertyTests {
    static let domain = "shop.example.com"
    static let otherHost = "other.example.com"

    /// A route from a number: 0–4 segments drawn from statics `a b c`, `:pN`, `:pN<int>` (only
    /// when `constraints`) and (last only) `*rest`; some restricted to one host; a third are
    /// `app: false`.
    static func route(_ index: Int, from seed: Int, constraints: Bool) -> Route {
        let length = seed % 5
        var rest = seed / 5
        var segments: [String] = []
        for position in 0..<length {
            let digit = rest % 7
            rest /= 7
            switch digit {
            case 0, 1, 2: segments.append(["a", "b", "c"][digit])
            case 3, 4: segments.append(":p\(position)")
            case 5: segments.append(constraints ? ":p\(position)<int>" : "b")
            default: segments.append(position == length - 1 ? "*rest" : "a")
            }
        }
        let path = "/" + segments.joined(separator: "/")
        let host = [0: "https://\(domain)", 1: "https://\(otherHost)"][rest % 6] ?? ""
        return Route(id: "r\(index)", module: "m", patterns: [host + path], app: (seed / 3) % 3 != 0)
    }

    /// Registers what it can (conflicts are dropped).
    static func build(_ routes: [Route]) -> (Router, [Route]) {
        var builder = RouterBuilder()
        var accepted: [Route] = []
        for route in routes where (try? builder.register(route)) != nil { accepted.append(route) }
        return (builder.build(), accepted)
    }

    /// Paths to try: every path of up to 3 segments over `a b 42`, each route's instances,
    /// and each with a segment more, a segment less and a trailing `/`.
    static func paths(for routes: [Route]) -> [String] {
        var paths: Set<String> = ["/"]
        var frontier: [[String]] = [[]]
        for _ in 0..<3 {
            frontier = frontier.flatMap { prefix in ["a", "b", "42"].map { prefix + [$0] } }
            for segments in frontier { paths.insert("/" + segments.joined(separator: "/")) }
        }
        for route in routes {
            let text = route.patterns[0]
            let path = text.hasPrefix("https://") ? String(text.drop { $0 != "/" }.dropFirst(2).drop { $0 != "/" }) : text
            for values in [("7", "x/y"), ("v", "z"), ("a", "1/2/3")] {
                let segments = path.split(separator: "/").map { segment -> String in
                    if segment.hasPrefix(":") { return values.0 }
                    if segment == "*rest" { return values.1 }
                    return String(segment)
                }
                let base = "/" + segments.joined(separator: "/")
                paths.insert(base)
                // Paths with an empty segment (`//`) are outside the guarantee (design.md §11).
                if base != "/" { paths.insert(base + "/") }
                paths.insert(base == "/" ? "/extra" : base + "/extra")
                if !segments.isEmpty { paths.insert("/" + segments.dropLast().joined(separator: "/")) }
            }
        }
        return paths.sorted()
    }

    /// For every host and path: what the router decides, and what each file does.
    static func check(_ seeds: [Int], constraints: Bool, exact: Bool) {
        let (router, accepted) = build(seeds.enumerated().map { route($0.offset, from: $0.element, constraints: constraints) })
        let components = AppLinkComponents(routes: accepted, domains: [domain])
        let widened = Set(components.inexactness().filter { $0.kind == .constraintWidened }.map(\.routeID))
        let constrained = Set(accepted.filter { $0.patterns[0].contains("<int>") }.map(\.id))
        for host in [domain, otherHost, "evil.example.com"] {
            let published = components.components(forHost: host)
            for path in paths(for: accepted) {
                for suffix in ["", "?q=1&a=b", "#frag"] {
                    let text = "https://\(host)\(path)\(suffix)"
                    guard let url = try? ParsedURL.parse(text) else { continue }
                    let route = (try? router.match(url, isAppLink: host == domain))?.route
                    let appRoute = route?.app == true
                    for (platform, opens) in [
                        ("iOS", AppLinkMatchers.appleOpens(published, path: path)),
                        ("Android", AppLinkMatchers.androidOpens(published, path: path)),
                    ] {
                        if opens && !appRoute {
                            // The one documented widening: a constrained param published as
                            // any segment opens the app for a link no route takes, and for one
                            // another route takes only on a route the lint names.
                            let claimedBy = published.first {
                                platform == "iOS"
                                    ? AppLinkMatchers.appleMatches($0.path, path) : AppLinkMatchers.androidMatches($0.path, path)
                            }
                            #expect(
                                claimedBy.map { constrained.contains($0.comment) && (route == nil || widened.contains($0.comment)) }
                                    == true,
                                "\(platform) opens \(text) (router: \(route?.id ?? "no route")) via \(claimedBy?.path ?? "?") in \(accepted.map(\.patterns))"
                            )
                        }
                        if exact, appRoute {
                            #expect(opens, "\(platform) does not open \(text) (router: \(route?.id ?? "-")) in \(accepted.map(\.patterns))")
                        }
                    }
                }
            }
        }
    }

    @Test("without constraints both files open the app exactly where the router sends the URL to an app route")
    func exactWithoutConstraints() async {
        await propertyCheck(count: 150, input: Gen.int(in: 0...50_000).array(of: 1...12)) { seeds in
            Self.check(seeds, constraints: false, exact: true)
        }
    }

    @Test("with constraints no URL opens the app that the router sends elsewhere, except through a linted route")
    func soundWithConstraints() async {
        await propertyCheck(count: 150, input: Gen.int(in: 0...50_000).array(of: 1...12)) { seeds in
            Self.check(seeds, constraints: true, exact: false)
        }
    }

    @Test("the two matchers read * as the docs say: greedy on Apple, lazy on Android")
    func matcherModels() {
        #expect(AppLinkMatchers.appleMatches("/p/*/reviews", "/p/a/b/reviews"))
        #expect(!AppLinkMatchers.androidMatches("/p/*/reviews", "/p/a/b/reviews"))
        #expect(AppLinkMatchers.androidMatches("/p/*", "/p/a/b"))
        #expect(AppLinkMatchers.appleMatches("/p/?*", "/p/a"))
        #expect(!AppLinkMatchers.appleMatches("/p/?*", "/p/"))
        #expect(!AppLinkMatchers.androidMatches("/p/?*", "/p/"))
        #expect(AppLinkMatchers.androidMatches("*.html", "/a/b.html"))
    }
}
