import Foundation
import SwitchboardTestSupport
import Synchronization
import Testing

extension IntegrationTests {
    /// Requests always see one consistent snapshot, and a reload never fails or stalls them
    /// (design.md §6): clients hammer `/resolve` over keep-alive connections while the config is
    /// swapped back and forth.
    @Suite("Resolves during reloads")
    struct ReloadConsistencyTests {
        /// One generation of the config. Everything that changes between the two is in one route
        /// file, replaced atomically, so that the watcher (which also sees the writes) can only
        /// ever load one generation or the other.
        static func routes(_ generation: String) -> String {
            """
            module: gen
            routes:
              - id: gen.\(generation).item
                pattern: /item/:id<int>
                target: { page: Item\(generation) }
                params: { generation: \(generation) }
              - id: gen.\(generation).other
                pattern: /\(generation)/:x
                target: { page: Other }
            """
        }

        static let rewrites = """
            rules:
              - id: legacy
                match: '^shopapp://legacy/([0-9]+)'
                target: 'shopapp://item/$1'
            """

        static func expected(_ generation: String) -> String {
            #"{"matched":true,"url":"shopapp://legacy/7","rewrittenURL":"shopapp://item/7","ruleIds":["legacy"],"#
                + #""routeId":"gen.\#(generation).item","module":"gen","pattern":"/item/:id<int>","#
                + #""target":{"page":"Item\#(generation)"},"params":{"generation":"\#(generation)","id":"7"}}"#
        }

        final class Tally: Sendable {
            struct Counts {
                var done = 0
                var finishedThreads = 0
                var bodies: [String: Int] = [:]
                var failures: [String] = []
            }
            let counts = Mutex(Counts())
            /// Requests started, numbered across all clients.
            let tickets = Atomic<Int>(0)
            /// Reloads acknowledged so far.
            let reloads = Atomic<Int>(0)
        }

        @Test("4 keep-alive clients × 2,000 resolves during 20 reloads: all 200, each one of the two generations")
        func resolvesNeverFail() async throws {
            let config = try TestConfig.minimal(routes: ["gen.yaml": Self.routes("A")], rewrites: Self.rewrites)
            let server = try await InProcessServer(config: config)
            let port = server.port
            let threads = 4
            let perThread = 2_000
            let reloads = 20
            let total = threads * perThread
            // The requests are cut into one phase per config generation. Clients may run into
            // the next phase while a reload is under way (requests during reloads), but no
            // further (so each generation is really served): phase p opens once p reloads are
            // done; reload i starts halfway through phase i.
            let phase = total / (reloads + 1)
            let tally = Tally()
            let target = "/resolve?url=" + HTTPTestClient.queryValue("shopapp://legacy/7")
            for _ in 0..<threads {
                let thread = Thread {
                    defer { tally.counts.withLock { $0.finishedThreads += 1 } }
                    do {
                        let client = try HTTPTestClient(port: port)
                        for _ in 0..<perThread {
                            let ticket = tally.tickets.add(1, ordering: .relaxed).oldValue
                            while true {
                                let done = tally.reloads.load(ordering: .acquiring)
                                if done == reloads || ticket < (done + 1) * phase { break }
                                _ = usleep(200)
                            }
                            let response = try client.request("GET", target)
                            tally.counts.withLock { counts in
                                counts.done += 1
                                if response.status == 200 {
                                    counts.bodies[response.text, default: 0] += 1
                                } else {
                                    counts.failures.append(response.dump)
                                }
                            }
                        }
                    } catch {
                        tally.counts.withLock { $0.failures.append("client error: \(error)") }
                    }
                }
                thread.start()
            }

            let admin = try server.client()
            for index in 0..<reloads {
                let due = index * phase + phase / 2
                let reached = try await eventually(timeout: .seconds(30), interval: .milliseconds(1)) {
                    tally.counts.withLock { $0.done >= due || $0.finishedThreads == threads }
                }
                #expect(reached)
                try config.write("routes.d/gen.yaml", Self.routes(index % 2 == 0 ? "B" : "A"))
                let reload = try admin.admin("POST", "/admin/reload")
                #expect(reload.status == 200, "\(reload.dump)")
                #expect(reload.json["routes"] as? Int == 2)
                tally.reloads.add(1, ordering: .releasing)
            }
            let finished = try await eventually(timeout: .seconds(60), interval: .milliseconds(10)) {
                tally.counts.withLock { $0.finishedThreads == threads }
            }
            #expect(finished)

            let counts = tally.counts.withLock { $0 }
            #expect(counts.failures.isEmpty, "\(counts.failures.prefix(3))")
            #expect(counts.done == total)
            let unexpected = counts.bodies.keys.filter { $0 != Self.expected("A") && $0 != Self.expected("B") }
            #expect(unexpected.isEmpty, "\(unexpected)")
            #expect(counts.bodies[Self.expected("A")] ?? 0 > 0)
            #expect(counts.bodies[Self.expected("B")] ?? 0 > 0)
            let metrics = try admin.request("GET", "/metrics").text
            #expect(metricValue(metrics, #"switchboard_reloads_total{result="failed"}"#) == 0)
            #expect(metricValue(metrics, #"switchboard_reloads_total{result="ok"}"#).map { $0 >= Double(reloads) } == true)
        }
    }
}
