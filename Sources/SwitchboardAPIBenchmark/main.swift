import Foundation
import Logging
import SwitchboardHTTP
import SwitchboardServer

// The server's request path in process: `GET /resolve` requests for the links of
// `scripts/loadtest/generate-production.py`, answered by the `SwitchboardAPI` that
// `switchboard serve` wires (`ServingParts`), without libmicrohttpd or sockets. The load test
// moves by more than a step of this layer costs; here the endpoint table, the query, the
// cache, the metrics and the answer can be timed, and counted exactly under callgrind:
//
//   swift build -c release --product SwitchboardAPIBenchmark
//   python3 scripts/loadtest/generate-production.py /tmp/p/config /tmp/p/urls.txt 50000
//   .build/release/SwitchboardAPIBenchmark /tmp/p/config /tmp/p/urls.txt distinct 200000
//   valgrind --tool=callgrind --toggle-collect='*answerAll*' .build/release/SwitchboardAPIBenchmark … 20000
//     (instructions per request: the total ÷ the request count)
//
// Arguments: CONFIG_DIR URLS_FILE [distinct|repeat] [REQUESTS] [lane|table]. `distinct` puts a
// click id unique to the request into every link, as the load test does (the cache never
// answers); `repeat` cycles over the first 1,000 links (the cache answers all but their first
// two). `lane` (the default) offers each request to the direct answer first, as the server does;
// `table` sends every request through the endpoint table.

/// The requests of one run, built before it so that only the API's work is timed.
func makeRequests(links: [String], scenario: String, count: Int) -> [HTTPRequest] {
    let pool = scenario == "repeat" ? Array(links.prefix(1_000)) : links
    return (0..<count).map { index in
        let click = scenario == "repeat" ? "0" : "\(index)x1"
        let link = pool[index % pool.count].replacingOccurrences(of: "CIDX", with: click)
        return HTTPRequest(
            method: "GET", path: "/resolve", query: "url=" + link, headers: [("Host", "bench")],
            remoteAddress: "127.0.0.1")
    }
}

/// Answers every request as `switchboard serve` does: the direct answer first, with one body
/// buffer reused as a worker thread's is, else the endpoint table (`lane` false: the table
/// alone). Returns how many answers were 200, to keep the work observable.
@inline(never)
func answerAll(_ requests: [HTTPRequest], with api: SwitchboardAPI, lane: Bool) -> Int {
    var matched = 0
    var body: [UInt8] = []
    for request in requests {
        var status = 0
        if lane {
            body.removeAll(keepingCapacity: true)
            switch api.answerDirectly(request, body: &body) {
            case .written(let written, _): status = written
            case .response(let response): status = response.status
            case .declined: status = api.handle(request).status
            }
        } else {
            status = api.handle(request).status
        }
        if status == 200 { matched += 1 }
    }
    return matched
}

let arguments = CommandLine.arguments
guard arguments.count >= 3, arguments.count <= 6 else {
    FileHandle.standardError.write(
        Data("usage: SwitchboardAPIBenchmark CONFIG_DIR URLS_FILE [distinct|repeat] [REQUESTS] [lane|table]\n".utf8))
    exit(2)
}
let scenario = arguments.count > 3 ? arguments[3] : "distinct"
let count = arguments.count > 4 ? Int(arguments[4]) ?? 0 : 200_000
let path = arguments.count > 5 ? arguments[5] : "lane"
guard scenario == "distinct" || scenario == "repeat", count > 0, path == "lane" || path == "table" else {
    FileHandle.standardError.write(
        Data("the scenario is distinct or repeat, REQUESTS a positive number, the path lane or table\n".utf8))
    exit(2)
}
let links = try String(contentsOfFile: arguments[2], encoding: .utf8).split(separator: "\n").map(String.init)
var logger = Logger(label: "switchboard-api-benchmark")
logger.logLevel = .warning
let parts = ServingParts(
    loaded: try SnapshotLoader.load(configDirectory: arguments[1], environment: [:]), configDirectory: arguments[1],
    environment: { [:] }, logger: logger, clock: { Date().timeIntervalSince1970 })

// A first pass over other links warms the caches and the metrics' series.
_ = answerAll(
    makeRequests(links: links.reversed(), scenario: scenario, count: min(count, 2_000)), with: parts.api,
    lane: path == "lane")
let requests = makeRequests(links: links, scenario: scenario, count: count)
let clock = ContinuousClock()
let started = clock.now
let matched = answerAll(requests, with: parts.api, lane: path == "lane")
let elapsed = clock.now - started
let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
print(
    "\(scenario), \(path): \(count) requests, \(matched) matched, "
        + String(format: "%.0f ns per request", nanoseconds / Double(count)))
