import RoutingKit
import SwitchboardCore

/// Building a router of the synthetic 100k set: time and the heap it keeps per route.
struct BuildSuite {
    let rounds: Int

    func run(_ set: RouteSet) throws -> [Row] {
        let count = Double(set.patterns.count)
        var samples: [Double] = []
        var baselineSamples: [Double] = []
        for _ in 0..<rounds {
            let routes = set.patterns.enumerated().map { Route(id: "r\($0.offset)", module: "bench", patterns: [$0.element]) }
            var start = Measurement.now()
            var builder = RouterBuilder()
            for route in routes { try builder.register(route) }
            let router = builder.build()
            samples.append(Double(Measurement.now() - start) / 1_000_000)
            if router.routes.isEmpty { print("") }

            start = Measurement.now()
            let baseline = TrieRouter(Int.self)
            for (index, pattern) in set.patterns.enumerated() { baseline.register(index, at: pattern.pathComponents) }
            baselineSamples.append(Double(Measurement.now() - start) / 1_000_000)
        }

        // Heap kept by a router built from scratch (route values included; builder released).
        var before = Measurement.heapInUse()
        let router = try Self.build(set.patterns)
        let heap = Double(Measurement.heapInUse() - before) / count
        let trie = Double(router.trieByteCount) / count
        before = Measurement.heapInUse()
        let baseline = TrieRouter(Int.self)
        for (index, pattern) in set.patterns.enumerated() { baseline.register(index, at: pattern.pathComponents) }
        let baselineHeap = Double(Measurement.heapInUse() - before) / count
        if router.routes.count + baseline.description.count == 0 { print("") }

        return [
            Row(
                benchmark: "build \(set.name)", unit: "ms", switchboard: Measurement.median(samples),
                baseline: Measurement.median(baselineSamples), baselineName: "RoutingKit", target: 60),
            Row(
                benchmark: "heap per route, \(set.name)", unit: "bytes", switchboard: heap, baseline: baselineHeap,
                baselineName: "RoutingKit", target: 120),
            Row(
                benchmark: "heap per route, trie arrays only", unit: "bytes", switchboard: trie, baseline: nil,
                baselineName: "", target: nil),
        ]
    }

    private static func build(_ patterns: [String]) throws -> SwitchboardCore.Router {
        var builder = RouterBuilder()
        for (index, pattern) in patterns.enumerated() {
            try builder.register(Route(id: "r\(index)", module: "bench", patterns: [pattern]))
        }
        return builder.build()
    }
}
