import Foundation

/// A list of route patterns and the requests that exercise them (shared/bench/README.md).
struct RouteSet {
    /// The set's name as printed in the tables.
    let name: String
    /// Unique path patterns, `:name` for params.
    let patterns: [String]
    /// Paths to look up; each one matches a pattern.
    let requests: [String]

    /// Loads `FILE.txt` (`METHOD /pattern` per line) and instantiates every unique pattern
    /// once, replacing `:name` at 1-based segment position p with `name` + p.
    static func load(name: String, directory: String) throws -> RouteSet {
        let text = try String(contentsOfFile: "\(directory)/\(name).txt", encoding: .utf8)
        var seen: Set<String> = []
        var patterns: [String] = []
        for line in text.split(separator: "\n") {
            guard let path = line.split(separator: " ").last.map(String.init), path.hasPrefix("/") else { continue }
            if seen.insert(path).inserted { patterns.append(path) }
        }
        return RouteSet(name: name, patterns: patterns, requests: patterns.map(instantiate))
    }

    /// The synthetic scale set: `/v{a}/resource{b}/:id/sub{c}` for a, c in 0..9 and b in
    /// 0..<count/100; requests take route `(i * 7919) % count` with `100000 + i` as the id.
    static func synthetic(count: Int) -> RouteSet {
        func pattern(_ index: Int, id: String) -> String {
            "/v\(index % 10)/resource\(index / 100)/\(id)/sub\((index / 10) % 10)"
        }
        let patterns = (0..<count).map { pattern($0, id: ":id") }
        let requests = (0..<10_000).map { pattern(($0 * 7919) % count, id: String(100_000 + $0)) }
        return RouteSet(name: "synth-\(count / 1000)k", patterns: patterns, requests: requests)
    }

    private static func instantiate(_ pattern: String) -> String {
        let segments = pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        let filled = segments.enumerated().map { offset, segment in
            segment.hasPrefix(":") ? "\(segment.dropFirst())\(offset + 1)" : String(segment)
        }
        return "/" + filled.joined(separator: "/")
    }
}
