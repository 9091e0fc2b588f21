import SwitchboardCore

/// The rewrite pass and a full resolve. Rule sets: `count - 1` rules for other hosts (the
/// literal prefilter can skip them) and, last, the one rule that matches the request.
struct RewriteSuite {
    let rounds: Int
    static let request = "https://www.shop.example/item/42?ref=mail"

    static func rules(count: Int) -> [RewriteRule] {
        var rules = (0..<(count - 1)).map {
            RewriteRule(id: "other\($0)", match: #"^https://m\#($0)\.shop\.example/item/(\d+)"#, target: "app://repos/item$0/$1")
        }
        rules.append(RewriteRule(id: "web-item", match: #"^https://www\.shop\.example/item/(\d+)"#, target: "app://repos/item/$1?$query"))
        return rules
    }

    func run(routes: RouteSet) throws -> [Row] {
        let url = try ParsedURL.parse(Self.request)
        let ten = try RewriteEngine(rules: Self.rules(count: 10))
        let thousand = try RewriteEngine(rules: Self.rules(count: 1000))
        guard ten.rewrite(url).didRewrite, thousand.rewrite(url).didRewrite else {
            throw BenchmarkError("the rewrite rules do not fire")
        }
        var sink = Sink()
        let tenCost = Measurement.medianNanoseconds(rounds: rounds, operationsPerPass: 1) {
            sink.consume(ten.rewrite(url).url.string.utf8.count)
        }
        let thousandCost = Measurement.medianNanoseconds(rounds: rounds, operationsPerPass: 1) {
            sink.consume(thousand.rewrite(url).url.string.utf8.count)
        }

        var builder = ResolverBuilder(policy: AppLinkPolicy(schemes: ["app"], domains: []))
        for (index, pattern) in routes.patterns.enumerated() {
            builder.add(Route(id: "r\(index)", module: "bench", patterns: [pattern], target: .object([("page", .string("Page\(index)"))])))
        }
        builder.add(rules: Self.rules(count: 10))
        let resolver = try builder.build()
        guard try resolver.resolve(Self.request).matched else { throw BenchmarkError("the resolve request does not match") }
        let direct = "app" + ":/" + (routes.requests.first(where: { $0.hasPrefix("/repos/") }) ?? "/")
        let resolveRewritten = Measurement.medianNanoseconds(rounds: rounds, operationsPerPass: 1) {
            sink.consume((try? resolver.resolve(Self.request).jsonBytes.count) ?? 0)
        }
        let resolveDirect = Measurement.medianNanoseconds(rounds: rounds, operationsPerPass: 1) {
            sink.consume((try? resolver.resolve(direct).jsonBytes.count) ?? 0)
        }
        let resolveAllocations = Measurement.allocationsPerOperation(operationsPerPass: 1) {
            sink.consume((try? resolver.resolve(Self.request).jsonBytes.count) ?? 0)
        }
        if sink.checksum == 42 { print("") }
        return [
            Row(
                benchmark: "rewrite, 10 rules (1 fires)", unit: "ns/op", switchboard: tenCost, baseline: nil,
                baselineName: "", target: nil),
            Row(
                benchmark: "rewrite, 1,000 rules (1 fires)", unit: "ns/op", switchboard: thousandCost, baseline: tenCost,
                baselineName: "10 rules", target: 3 * tenCost),
            Row(
                benchmark: "resolve: parse + 10 rules (1 fires) + match + JSON", unit: "ns/op",
                switchboard: resolveRewritten, baseline: nil, baselineName: "", target: 1500),
            Row(
                benchmark: "resolve: parse + 10 rules (none fires) + match + JSON", unit: "ns/op",
                switchboard: resolveDirect, baseline: nil, baselineName: "", target: 1500),
            Row(
                benchmark: "resolve allocations (rule fires)", unit: "allocs/op", switchboard: resolveAllocations,
                baseline: nil, baselineName: "", target: nil),
        ]
    }
}
