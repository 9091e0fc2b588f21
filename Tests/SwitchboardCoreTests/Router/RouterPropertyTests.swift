import PropertyBased
import SwitchboardTestSupport
import Testing

@testable import SwitchboardCore

/// Invariants of the router over generated route tables.
struct RouterPropertyTests {
    /// A pattern derived from a number: 1–4 segments drawn from statics `a b c`, `:pN`,
    /// `:pN<int>` and (last only, when allowed) `*rest`; some restricted to `myapp://`.
    static func pattern(from seed: Int, allowCatchAll: Bool) -> String {
        let length = 1 + seed % 4
        var rest = seed / 4
        var segments: [String] = []
        for index in 0..<length {
            let digit = rest % 6
            rest /= 6
            switch digit {
            case 0, 1, 2: segments.append(["a", "b", "c"][digit])
            case 3: segments.append(":p\(index)")
            case 4: segments.append(":p\(index)<int>")
            default: segments.append(allowCatchAll && index == length - 1 ? "*rest" : "d")
            }
        }
        let path = "/" + segments.joined(separator: "/")
        return seed % 7 == 0 ? "myapp:/" + path : path
    }

    /// A URL the pattern accepts, with values no static segment equals.
    static func instance(of pattern: String) -> (url: String, captures: [String: String]) {
        let restricted = pattern.hasPrefix("myapp://")
        let path = restricted ? String(pattern.dropFirst("myapp://".count)) : String(pattern.dropFirst())
        var segments: [String] = []
        var captures: [String: String] = [:]
        for (index, segment) in path.split(separator: "/").enumerated() {
            if segment.hasSuffix("<int>") {
                segments.append("\(100 + index)")
                captures["p\(index)"] = "\(100 + index)"
            } else if segment.hasPrefix(":") {
                segments.append("v\(index)x")
                captures["p\(index)"] = "v\(index)x"
            } else if segment == "*rest" {
                segments.append("w\(index)/z")
                captures["rest"] = "w\(index)/z"
            } else {
                segments.append(String(segment))
            }
        }
        let base = restricted ? "myapp://" : "https://shop.example.com/"
        return (base + segments.joined(separator: "/"), captures)
    }

    /// Registers what it can in the given order; returns the router and the accepted routes.
    static func build(_ patterns: [String]) -> (Router, [Route]) {
        var builder = RouterBuilder()
        var accepted: [Route] = []
        for (index, pattern) in patterns.enumerated() {
            let route = Route(id: "r\(index)", module: "m", patterns: [pattern])
            if (try? builder.register(route)) != nil { accepted.append(route) }
        }
        return (builder.build(), accepted)
    }

    static func resolve(_ router: Router, _ text: String) -> String {
        guard let url = try? ParsedURL.parse(text) else { return "invalid" }
        let isAppLink = url.scheme == "myapp" || url.host == "shop.example.com"
        guard let match = try? router.match(url, isAppLink: isAppLink) else { return "none" }
        let captures = match.captures.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        return "\(match.route.id)?\(captures)"
    }

    @Test func everyRegisteredPatternResolvesToItsOwnRoute() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...5000).array(of: 1...15)) { seeds in
            let patterns = seeds.map { Self.pattern(from: $0, allowCatchAll: false) }
            let (router, accepted) = Self.build(patterns)
            for route in accepted {
                let (url, captures) = Self.instance(of: route.patterns[0])
                let parsed = try? ParsedURL.parse(url)
                let match = parsed.flatMap { try? router.match($0, isAppLink: true) }
                #expect(match?.route.id == route.id, "\(route.patterns[0]) via \(url)")
                let got = Dictionary((match?.captures ?? []).map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
                #expect(got == captures, "\(route.patterns[0]) via \(url)")
            }
        }
    }

    @Test func registrationOrderNeverChangesTheWinner() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...5000).array(of: 1...15), Gen.int(in: 0...1_000_000)) {
            seeds, shuffleSeed in
            let patterns = seeds.map { Self.pattern(from: $0, allowCatchAll: true) }
            let (_, accepted) = Self.build(patterns)
            var forward = RouterBuilder()
            for route in accepted { try? forward.register(route) }
            var generator = SplitMix(seed: UInt64(shuffleSeed))
            var backward = RouterBuilder()
            for route in accepted.shuffled(using: &generator) {
                #expect(throws: Never.self) { try backward.register(route) }
            }
            let (one, two) = (forward.build(), backward.build())
            var probes = accepted.map { Self.instance(of: $0.patterns[0]).url }
            probes += ["myapp://a/b/c", "https://shop.example.com/a/7/c/z", "myapp://c/1/d/d", "https://shop.example.com/b"]
            for probe in probes {
                #expect(Self.resolve(one, probe) == Self.resolve(two, probe), "\(probe)")
            }
        }
    }
}
