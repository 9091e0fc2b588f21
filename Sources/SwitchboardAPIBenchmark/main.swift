import Foundation
import Logging
import SwitchboardHTTP
import SwitchboardServer
import Synchronization

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
// Arguments: CONFIG_DIR URLS_FILE [distinct|repeat] [REQUESTS] [THREADS]. `distinct` puts a
// click id unique to the request into every link, as the load test does (the cache never
// answers); `repeat` cycles over the first 1,000 links (the cache answers all but their first
// two). Every request goes through the one request path, with one body buffer reused as a
// worker thread's is. With THREADS above 1, that many
// threads each answer REQUESTS requests of their own at once, as the server's workers do: the
// time per request beside a run with one thread shows what the threads cost each other (shared
// reference counts, locks and counters moving between cores), which one thread cannot show.
//
// EVICT_KIB=N in the environment writes one byte of every cache line of an N KiB buffer
// between two requests, as the kernel's TCP stack and the load generator do between two
// requests of a server's worker: the time then includes the misses of the code and data a
// request touches, which a warm loop hides. The writes are timed as they run and taken off,
// so the figure is still per request. Under callgrind with `--cache-sim=yes`, the last-level
// misses per request count the cache lines a request touches (scripts/cold-misses.sh).
//
// Analytics are on unless the config says `analytics: { enabled: false }`; they are counted in
// memory only (no store) and folded within the timed loop.

/// The targets of one run's requests, built before it so that only the API's work is timed;
/// each request is made from its target's bytes as it is answered (``answerAll``), as the
/// HTTP layer makes it from what a connection read, so that its strings are as fresh as there.
func makeTargets(links: [String], scenario: String, count: Int, thread: Int = 0) -> [[UInt8]] {
    let pool = scenario == "repeat" ? Array(links.prefix(1_000)) : links
    return (0..<count).map { index in
        let click = scenario == "repeat" ? "0" : "\(index)x\(thread + 1)"
        return Array(("url=" + pool[index % pool.count].replacingOccurrences(of: "CIDX", with: click)).utf8)
    }
}

/// A buffer whose every cache line is written once per request, to push what a request
/// touched out of the caches. Each thread has its own (unchecked `Sendable`: it is handed to
/// its thread once and used by that thread alone).
final class Eviction: @unchecked Sendable {
    private let bytes: UnsafeMutableRawBufferPointer
    private var round: UInt8 = 0

    init(kibibytes: Int) {
        bytes = .allocate(byteCount: kibibytes * 1024, alignment: 64)
        bytes.initializeMemory(as: UInt8.self, repeating: 0)
    }

    deinit {
        bytes.deallocate()
    }

    /// Time spent in ``run()``, in nanoseconds, to be taken off the run's.
    private(set) var nanoseconds = 0

    @inline(never)
    func run() {
        let started = Self.now()
        round &+= 1
        for offset in stride(from: 0, to: bytes.count, by: 64) { bytes[offset] = round }
        nanoseconds += Self.now() - started
    }

    private static func now() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec * 1_000_000_000 + now.tv_nsec
    }
}

/// Answers every request as `switchboard serve` does, with one body buffer reused as a worker
/// thread's is. Returns how many answers were 200, to keep the work observable. With analytics
/// on, their lanes are folded every 1,024 requests, as the server's analytics service does every
/// 50 ms: the fold's work is counted with the requests'.
@inline(never)
func answerAll(_ queries: [[UInt8]], with api: SwitchboardAPI, analytics: Analytics?, evicting eviction: Eviction?) -> Int {
    var matched = 0
    var body: [UInt8] = []
    for (index, query) in queries.enumerated() {
        if let analytics, index & 1_023 == 1_023 { analytics.fold() }
        eviction?.run()
        let request = HTTPRequest(
            method: "GET", path: "/resolve", query: String(decoding: query, as: UTF8.self),
            headers: [("Host", "bench")], remoteAddress: "127.0.0.1")
        body.removeAll(keepingCapacity: true)
        if api.handle(request, body: &body).status == 200 { matched += 1 }
    }
    return matched
}

let arguments = CommandLine.arguments
guard arguments.count >= 3, arguments.count <= 6 else {
    FileHandle.standardError.write(
        Data("usage: SwitchboardAPIBenchmark CONFIG_DIR URLS_FILE [distinct|repeat] [REQUESTS] [THREADS]\n".utf8))
    exit(2)
}
let scenario = arguments.count > 3 ? arguments[3] : "distinct"
let count = arguments.count > 4 ? Int(arguments[4]) ?? 0 : 200_000
let threads = arguments.count > 5 ? Int(arguments[5]) ?? 0 : 1
guard scenario == "distinct" || scenario == "repeat", count > 0, (1...64).contains(threads) else {
    FileHandle.standardError.write(
        Data("the scenario is distinct or repeat, REQUESTS a positive number, THREADS 1 to 64\n".utf8))
    exit(2)
}
let links = try String(contentsOfFile: arguments[2], encoding: .utf8).split(separator: "\n").map(String.init)
var logger = Logger(label: "switchboard-api-benchmark")
logger.logLevel = .warning
let parts = try ServingParts(
    loaded: try SnapshotLoader.load(configDirectory: arguments[1], environment: [:]), configDirectory: arguments[1],
    environment: { [:] }, logger: logger, clock: { Date().timeIntervalSince1970 })

let evictKiB = ProcessInfo.processInfo.environment["EVICT_KIB"].flatMap { Int($0) } ?? 0
let evictions = (0..<threads).map { _ in evictKiB > 0 ? Eviction(kibibytes: evictKiB) : nil }

// A first pass over other links warms the caches and the metrics' series.
_ = answerAll(
    makeTargets(links: links.reversed(), scenario: scenario, count: min(count, 2_000)), with: parts.api,
    analytics: parts.context.analytics, evicting: nil)

let targetsByThread = (0..<threads).map { makeTargets(links: links, scenario: scenario, count: count, thread: $0) }
let clock = ContinuousClock()
let started = clock.now
let matched: Int
if threads == 1 {
    matched = answerAll(targetsByThread[0], with: parts.api, analytics: parts.context.analytics, evicting: evictions[0])
} else {
    // Threads of their own, so that every one runs at once (a dispatch pool may run them in turn).
    let matchedByThread = Mutex([Int](repeating: 0, count: threads))
    let finished = DispatchGroup()
    for thread in 0..<threads {
        finished.enter()
        Thread.detachNewThread {
            let answered = answerAll(
                targetsByThread[thread], with: parts.api, analytics: parts.context.analytics, evicting: evictions[thread])
            matchedByThread.withLock { $0[thread] = answered }
            finished.leave()
        }
    }
    finished.wait()
    matched = matchedByThread.withLock { $0.reduce(0, +) }
}
let elapsed = clock.now - started
let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
let evictionCost = Double(evictions[0]?.nanoseconds ?? 0) / Double(count)
let perRequest = nanoseconds / Double(count) - evictionCost
print(
    "\(scenario), \(threads) thread(s)\(evictKiB > 0 ? ", \(evictKiB) KiB evicted" : ""): "
        + "\(count) requests each, \(matched) matched, "
        + String(format: "%.0f ns per request (wall time ÷ one thread's requests", perRequest)
        + (evictKiB > 0 ? String(format: ", less %.0f ns of evictions)", evictionCost) : ")"))
