import SwitchboardCore

/// A production-shaped config and traffic for the in-process resolve benchmark: 20 modules of
/// 100 routes, 50 rewrite rules, and distinct URLs in the mix of real deep-link traffic (every
/// link carries its own click id, so no two requests are the same).
enum ProductionShape {
    static let moduleCount = 20
    /// Each module has this many routes of each of its four kinds.
    static let routesPerKind = 25
    static let schemes = ["shop"]
    static let domains = ["shop.example.com"]
    static let fallback = "https://m.shop.example.com/?from=$$url"

    /// 20 modules × (25 `:id<int>`, 25 static, 25 `:name`, 25 catch-all) = 2,000 routes.
    static func routes() -> [Route] {
        var routes: [Route] = []
        for module in 0..<moduleCount {
            let name = "m\(module)"
            for item in 0..<routesPerKind {
                routes.append(
                    Route(
                        id: "\(name).item\(item)", module: name, patterns: ["/\(name)/item\(item)/:id<int>"],
                        target: .object([("page", .string("Item\(item)")), ("module", .string(name))]),
                        defaultParams: [("source", "deeplink")]))
                routes.append(
                    Route(
                        id: "\(name).page\(item)", module: name, patterns: ["/\(name)/page\(item)"],
                        target: .object([("page", .string("Page\(item)"))])))
                routes.append(
                    Route(
                        id: "\(name).user\(item)", module: name, patterns: ["/\(name)/user\(item)/:name"],
                        target: .object([("page", .string("User\(item)"))])))
                routes.append(
                    Route(
                        id: "\(name).files\(item)", module: name, patterns: ["/\(name)/files\(item)/*path"],
                        target: .object([("page", .string("Files\(item)"))])))
            }
        }
        return routes
    }

    /// 48 host-specific migrations (hosts no request uses), the web → app rule, the campaign rule.
    /// The migrations take `http` and `https` alike, as `generate-production.py`'s do: the
    /// optional `s` cuts their anchored literals to `http`, which a filter by the URL's first
    /// bytes cannot tell apart.
    static func rules() -> [RewriteRule] {
        var rules = (0..<48).map { index in
            RewriteRule(
                id: "migrate-legacy\(index)", match: #"^https?://legacy\#(index)\.shop\.example\.com/(.*)$"#,
                target: "shop://m\(index % moduleCount)/$1")
        }
        rules.append(RewriteRule(id: "web-to-app", match: #"^https://www\.shop\.example\.com/(.*)$"#, target: "shop://$1"))
        rules.append(
            RewriteRule(id: "campaign", match: #"^shop://campaign/(\w+)"#, target: "shop://m0/page0?campaign=$1"))
        return rules
    }

    static func resolver() throws -> Resolver {
        var builder = ResolverBuilder(policy: AppLinkPolicy(schemes: schemes, domains: domains), fallback: fallback)
        for route in routes() { builder.add(route) }
        builder.add(rules: rules())
        return try builder.build()
    }

    /// The kinds of request in the traffic mix, with their share in percent.
    enum Kind: CaseIterable {
        /// `shop://mK/itemJ/ID?utm_source=push&cid=UNIQUE`: 55 %.
        case push
        /// `https://www.shop.example.com/…`, rewritten to the app: 15 %.
        case webRewritten
        /// An app link on the web domain with `%20` in a `:name`: 10 %.
        case webEncoded
        /// `shop://mK/userJ/NAME`: 10 %.
        case name
        /// `shop://mK/filesJ/a/b/c`: 4 %.
        case catchAll
        /// No route (404 with the fallback): 8 %.
        case unmatched

        var share: Int {
            switch self {
            case .push: 55
            case .webRewritten: 15
            case .webEncoded, .name: 10
            case .catchAll: 4
            case .unmatched: 8
            }
        }
    }

    /// `count` distinct URLs of `kinds`, in the proportions of the mix, interleaved.
    static func urls(count: Int, kinds: [Kind], seed: UInt64 = 16) -> [String] {
        var random = SplitMix64(seed: seed)
        let total = kinds.reduce(0) { $0 + $1.share }
        var urls: [String] = []
        urls.reserveCapacity(count)
        for serial in 0..<count {
            var pick = Int(random.next() % UInt64(total))
            var kind = kinds[0]
            for candidate in kinds {
                if pick < candidate.share {
                    kind = candidate
                    break
                }
                pick -= candidate.share
            }
            urls.append(url(kind, serial: serial, random: &random))
        }
        return urls
    }

    private static func url(_ kind: Kind, serial: Int, random: inout SplitMix64) -> String {
        let module = Int(random.next() % UInt64(moduleCount))
        let item = Int(random.next() % UInt64(routesPerKind))
        let id = 10_000 + Int(random.next() % 90_000_000)
        let click = String(random.next() % (1 << 48), radix: 36) + String(serial, radix: 36)
        switch kind {
        case .push:
            return "shop://m\(module)/item\(item)/\(id)?utm_source=push&cid=\(click)"
        case .webRewritten:
            return "https://www.shop.example.com/m\(module)/item\(item)/\(id)?utm_source=web&cid=\(click)"
        case .webEncoded:
            return "https://shop.example.com/m\(module)/user\(item)/Jane%20Doe%20\(click)?ref=web"
        case .name:
            return "shop://m\(module)/user\(item)/user-\(click)"
        case .catchAll:
            return "shop://m\(module)/files\(item)/docs/\(click)/manual.pdf"
        case .unmatched:
            return "shop://m\(module)/gone\(item)/\(id)?cid=\(click)"
        }
    }
}

/// A small seeded generator (SplitMix64), so every run requests the same URLs.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
