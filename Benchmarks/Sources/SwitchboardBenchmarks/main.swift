// The Switchboard benchmark suite: run it through scripts/bench.sh (release, pinned).
//
// Usage: SwitchboardBenchmarks [--sets DIR] [--rounds N] [--only lookup|build|rewrite|production|production-once] [--set NAME]
import Foundation

func option(_ name: String, default value: String) -> String {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return value }
    return arguments[index + 1]
}
let setsDirectory = option("--sets", default: "../../shared/bench")
let rounds = Int(option("--rounds", default: "11")) ?? 11
let only = option("--only", default: "")
let onlySet = option("--set", default: "")

do {
    var rows: [Row] = []
    if only.isEmpty || only == "lookup" {
        let lookups = LookupSuite(rounds: rounds)
        let targets: [String: Double] = ["github-api": 60, "static": 40, "synth-100k": 900]
        for name in ["github-api", "static", "parse", "gplus"] where onlySet.isEmpty || onlySet == name {
            rows += try lookups.run(RouteSet.load(name: name, directory: setsDirectory), target: targets[name])
        }
        for count in [10_000, 100_000] where onlySet.isEmpty || onlySet == "synth-\(count / 1000)k" {
            let set = RouteSet.synthetic(count: count)
            rows += try lookups.run(set, target: targets[set.name])
        }
    }
    if only.isEmpty || only == "build" {
        rows += try BuildSuite(rounds: max(3, rounds / 2)).run(RouteSet.synthetic(count: 100_000))
    }
    if only.isEmpty || only == "rewrite" {
        rows += try RewriteSuite(rounds: rounds).run(routes: RouteSet.load(name: "github-api", directory: setsDirectory))
    }
    if only.isEmpty || only == "production" {
        rows += try ProductionSuite(rounds: rounds).run()
    }
    if only == "production-once" {
        // One pass over the traffic mix and nothing else: for profilers (callgrind, perf).
        try ProductionSuite(rounds: 1).runOnce(onlySet)
    }
    printTable(rows)
} catch {
    FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
    exit(1)
}
