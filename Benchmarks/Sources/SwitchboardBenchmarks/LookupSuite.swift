import Foundation
import RoutingKit
@_spi(Benchmarks) import SwitchboardCore

/// Router lookups: Switchboard's trie walk (split, decode, walk; no captures built) against
/// RoutingKit's `TrieRouter` given the same path as a string (split, decode, walk).
struct LookupSuite {
    let rounds: Int

    func run(_ set: RouteSet, target: Double?) throws -> [Row] {
        let router = try Self.switchboardRouter(set.patterns)
        let baseline = TrieRouter(Int.self)
        for (index, pattern) in set.patterns.enumerated() { baseline.register(index, at: pattern.pathComponents) }

        var sink = Sink()
        func switchboardPass() {
            for path in set.requests {
                sink.consume(router.lookupEntry(scheme: "app", host: nil, path: path, isAppLink: true) ?? -1_000_000)
            }
        }
        func baselinePass() {
            for path in set.requests {
                var parameters = Parameters()
                let components = path.split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
                sink.consume(baseline.route(path: components, parameters: &parameters) ?? -1_000_000)
            }
        }
        try Self.verify(set, router: router, baseline: baseline)
        let ours = Measurement.medianNanoseconds(rounds: rounds, operationsPerPass: set.requests.count, switchboardPass)
        let theirs = Measurement.medianNanoseconds(rounds: rounds, operationsPerPass: set.requests.count, baselinePass)
        let allocations = Measurement.allocationsPerOperation(operationsPerPass: set.requests.count, switchboardPass)
        let baselineAllocations = Measurement.allocationsPerOperation(
            operationsPerPass: set.requests.count, baselinePass)
        if sink.checksum == 42 { print("") }
        return [
            Row(
                benchmark: "lookup \(set.name) (\(set.patterns.count) routes)", unit: "ns/op", switchboard: ours,
                baseline: theirs, baselineName: "RoutingKit", target: target),
            Row(
                benchmark: "lookup \(set.name) allocations", unit: "allocs/op", switchboard: allocations,
                baseline: baselineAllocations, baselineName: "RoutingKit", target: 0),
        ]
    }

    static func switchboardRouter(_ patterns: [String]) throws -> SwitchboardCore.Router {
        var builder = RouterBuilder()
        for (index, pattern) in patterns.enumerated() {
            try builder.register(Route(id: "r\(index)", module: "bench", patterns: [pattern]))
        }
        return builder.build()
    }

    /// Every request must find a route in both routers, or the figures mean nothing.
    private static func verify(_ set: RouteSet, router: SwitchboardCore.Router, baseline: TrieRouter<Int>) throws {
        for path in set.requests {
            var parameters = Parameters()
            guard router.lookupEntry(scheme: "app", host: nil, path: path, isAppLink: true) != nil,
                baseline.route(path: path.split(separator: "/").map(String.init), parameters: &parameters) != nil
            else { throw BenchmarkError("\(set.name): no route for \(path)") }
        }
    }
}

/// A benchmark that cannot run as set up.
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
