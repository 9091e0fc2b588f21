import SwitchboardCore

/// In-process resolve on the production shape (``ProductionShape``): parse, 50 rules, match
/// over 2,000 routes, params and the JSON body of `/resolve`, each request a distinct URL.
///
/// Measured through `resolve(_:appendingBodyTo:)` (the body appended to a buffer kept from call
/// to call, as the server's worker threads keep one), beside the `Resolution` value of the same
/// pass.
struct ProductionSuite {
    let rounds: Int
    static let urlCount = 10_000

    func run() throws -> [Row] {
        let resolver = try ProductionShape.resolver()
        let noneFire = ProductionShape.urls(
            count: Self.urlCount, kinds: ProductionShape.Kind.allCases.filter { $0 != .webRewritten })
        let oneFires = ProductionShape.urls(count: Self.urlCount, kinds: [.webRewritten])
        let mix = ProductionShape.urls(count: Self.urlCount, kinds: ProductionShape.Kind.allCases)
        try Self.check(resolver)

        var rows: [Row] = []
        for (name, urls) in [("none fire", noneFire), ("one fires", oneFires), ("traffic mix", mix)] {
            var sink = Sink()
            var body: [UInt8] = []
            let bytePass = {
                for url in urls {
                    body.removeAll(keepingCapacity: true)
                    sink.consume((try? resolver.resolve(url, appendingBodyTo: &body).status) ?? 0)
                    sink.consume(body.count)
                }
            }
            let valuePass = {
                for url in urls {
                    sink.consume((try? resolver.resolve(url).jsonBytes.count) ?? 0)
                }
            }
            let byteCost = Measurement.medianNanoseconds(rounds: rounds, operationsPerPass: urls.count, bytePass)
            let byteAllocations = Measurement.allocationsPerOperation(operationsPerPass: urls.count, bytePass)
            let valueCost = Measurement.medianNanoseconds(rounds: rounds, operationsPerPass: urls.count, valuePass)
            rows.append(
                Row(
                    benchmark: "production resolve into a buffer, \(name)", unit: "ns/op", switchboard: byteCost,
                    baseline: valueCost, baselineName: "resolve(_:) value", target: name == "one fires" ? 2000 : 1500))
            rows.append(
                Row(
                    benchmark: "production resolve into a buffer allocations, \(name)", unit: "allocs/op",
                    switchboard: byteAllocations, baseline: nil, baselineName: "", target: name == "none fire" ? 0 : 1))
            if sink.checksum == 42 { print("") }
        }
        return rows
    }

    /// Resolves every URL of one list once (`none`, `one` or the whole mix), the way the timed
    /// passes do.
    func runOnce(_ list: String) throws {
        let resolver = try ProductionShape.resolver()
        let kinds: [ProductionShape.Kind] =
            switch list {
            case "none": ProductionShape.Kind.allCases.filter { $0 != .webRewritten }
            case "one": [.webRewritten]
            default: ProductionShape.Kind.allCases
            }
        let mix = ProductionShape.urls(count: Self.urlCount, kinds: kinds)
        var sink = Sink()
        var body: [UInt8] = []
        for url in mix {
            body.removeAll(keepingCapacity: true)
            sink.consume((try? resolver.resolve(url, appendingBodyTo: &body).status) ?? 0)
        }
        if sink.checksum == 42 { print("") }
    }

    /// Stops the run when the config does not answer as the traffic mix assumes.
    static func check(_ resolver: Resolver) throws {
        for kind in ProductionShape.Kind.allCases {
            for url in ProductionShape.urls(count: 50, kinds: [kind], seed: 7) {
                let resolution = try resolver.resolve(url)
                let expectMatch = kind != .unmatched
                let expectRewrite = kind == .webRewritten
                guard resolution.matched == expectMatch, (resolution.rewrittenURL != nil) == expectRewrite,
                    expectMatch || resolution.fallback != nil
                else {
                    throw BenchmarkError("production shape: \(url) answers \(String(decoding: resolution.jsonBytes, as: UTF8.self))")
                }
            }
        }
    }
}
