import Foundation
import SwitchboardCore
import SwitchboardHTTP
import SwitchboardTestSupport
import Testing

@testable import SwitchboardServer

/// The `GET /resolve` answer cache: a hit is the same answer byte for byte and is counted in
/// the metrics; a new snapshot starts empty; the asking app is part of the key when rules
/// look at it; time-windowed rules turn the cache off; memory stays within its budget.
extension IntegrationTests {
    @Suite("resolve cache")
    struct ResolveCacheTests {
        /// `switchboard_route_hits_total{route="<id>"}` from `/metrics`.
        private func routeHits(_ client: HTTPTestClient, _ route: String) throws -> Int {
            let text = try client.request("GET", "/metrics").text
            let prefix = "switchboard_route_hits_total{route=\"\(route)\"} "
            let line = text.split(separator: "\n").first { $0.hasPrefix(prefix) }
            return line.flatMap { Int($0.dropFirst(prefix.count)) } ?? 0
        }

        @Test("a repeated URL gets the same bytes, status and headers, and every hit is counted")
        func hitIsTheSameAnswer() async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            for url in ["shopapp://product/42?ref=push", "shopapp://nowhere/x", "https://www.shop.example.com/item.html?id=77"] {
                let first = try client.resolve(url)
                let second = try client.resolve(url)
                let third = try client.resolve(url)
                #expect(second.body == first.body && third.body == first.body, "\(url)")
                #expect(second.status == first.status && third.status == first.status)
                #expect(second.header("Content-Type") == "application/json; charset=utf-8")
            }
            #expect(server.application.context.snapshot.resolveCache.count == 3)
            // Three requests of product/42 and three of item.html (rewritten to a product page).
            #expect(try routeHits(client, "product.detail") == 6)
            // Each URL: a miss, a miss that stores the answer, a hit.
            let metrics = try client.request("GET", "/metrics").text
            #expect(metrics.contains("switchboard_resolve_cache_requests_total{result=\"hit\"} 3\n"), "\(metrics)")
            #expect(metrics.contains("switchboard_resolve_cache_requests_total{result=\"miss\"} 6\n"))
        }

        @Test("an answer is stored at its second miss: links asked once (click ids) never fill the cache")
        func storedAtSecondMiss() async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            var bodies: [[UInt8]] = []
            for click in 0..<200 {
                let answer = try client.resolve("shopapp://product/42?cid=\(click)")
                #expect(answer.status == 200)
                bodies.append(answer.body)
            }
            #expect(server.application.context.snapshot.resolveCache.count == 0)
            // Asked a second time: each answer is stored, and the same.
            for click in 0..<200 {
                #expect(try client.resolve("shopapp://product/42?cid=\(click)").body == bodies[click])
            }
            // Misses are remembered by hash in a fixed table, so two of the 200 keys may share a
            // slot (the hash is seeded per process): then the later one's miss hides the earlier
            // one's, and that key is stored at a later miss instead. Rare, never many.
            let stored = server.application.context.snapshot.resolveCache.count
            #expect((190...200).contains(stored))
            for click in 0..<200 {
                #expect(try client.resolve("shopapp://product/42?cid=\(click)").body == bodies[click])
            }
            // The third round: a hit for every stored key, a miss for every other.
            let metrics = try client.request("GET", "/metrics").text
            #expect(metrics.contains("switchboard_resolve_cache_requests_total{result=\"hit\"} \(stored)\n"), "\(metrics)")
            #expect(metrics.contains("switchboard_resolve_cache_requests_total{result=\"miss\"} \(600 - stored)\n"))
        }

        @Test("two spellings a String deems equal (é, and e with a combining accent) are two keys, and two answers")
        func keysAreBytes() throws {
            let composed = "url=shopapp://s/caf\u{E9}"
            let decomposed = "url=shopapp://s/cafe\u{301}"
            #expect(composed == decomposed)  // what `String` says; the resolver reads bytes
            let key = ResolveCache.Key(query: composed, appHeaders: [])
            #expect(key == ResolveCache.Key(query: composed, appHeaders: []))
            #expect(key.hash == ResolveCache.Key(query: composed, appHeaders: []).hash)
            #expect(key != ResolveCache.Key(query: decomposed, appHeaders: []))
            #expect(
                ResolveCache.Key(query: "url=a", appHeaders: ["ios", composed])
                    != ResolveCache.Key(query: "url=a", appHeaders: ["ios", decomposed]))
            #expect(
                ResolveCache.Key(query: "url=a", appHeaders: [nil, "x"]) != ResolveCache.Key(query: "url=a", appHeaders: ["x", nil]))
            #expect(
                ResolveCache.Key(query: "url=a", appHeaders: ["ab", "c"]) != ResolveCache.Key(query: "url=a", appHeaders: ["a", "bc"]))
        }

        @Test("a raw non-ASCII link is answered for its own bytes, not from the cached answer of another spelling")
        func cachedAnswerIsForTheSameBytes() async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            let composed = "shopapp://s/caf\u{E9}"
            let decomposed = "shopapp://s/cafe\u{301}"
            // Sent raw (not percent-encoded): the query's bytes are the two spellings'.
            for _ in 0..<3 { _ = try client.request("GET", "/resolve?url=" + composed) }
            #expect(server.application.context.snapshot.resolveCache.count == 1)
            // The body echoes the URL asked, byte for byte.
            let answer = try client.request("GET", "/resolve?url=" + decomposed).body
            #expect(answer.firstRange(of: Array(decomposed.utf8)) != nil)
            #expect(answer.firstRange(of: Array(composed.utf8)) == nil)
        }

        @Test("admission: a key is admitted from its second miss on, and a disabled cache admits nothing")
        func admission() {
            let cache = ResolveCache(budgetBytes: 1 << 20, dependence: .init(app: false, clock: false))
            let first = try! #require(cache.key(for: HTTPRequest(method: "GET", path: "/resolve", query: "url=a")))
            let second = try! #require(cache.key(for: HTTPRequest(method: "GET", path: "/resolve", query: "url=b")))
            #expect(!cache.admits(first))
            #expect(!cache.admits(second))
            #expect(cache.admits(first))
            #expect(cache.admits(second))
            let off = ResolveCache(budgetBytes: 0, dependence: .init(app: false, clock: false))
            let key = ResolveCache.Key(query: "url=a", appHeaders: [])
            #expect(!off.admits(key) && !off.admits(key))
        }

        @Test("a stored answer is found; after another key takes its admission slot it is missed once, then found again")
        func lookupFollowsTheAdmissionSlots() throws {
            let cache = ResolveCache(budgetBytes: 1 << 20, dependence: .init(app: false, clock: false))
            // Two keys whose hashes share an admission slot (about 300 keys find a pair).
            var bySlot: [UInt: ResolveCache.Key] = [:]
            var pair: (stored: ResolveCache.Key, other: ResolveCache.Key)?
            for index in 0..<100_000 where pair == nil {
                let key = ResolveCache.Key(query: "url=k\(index)", appHeaders: [])
                let slot = UInt(bitPattern: key.hash) % UInt(ResolveCache.missedOnceSlots)
                if let earlier = bySlot[slot], earlier.hash | 1 != key.hash | 1 { pair = (earlier, key) }
                bySlot[slot] = key
            }
            let (stored, other) = try #require(pair)
            let answer = ResolveCache.Answer(status: 200, body: Array("{}".utf8), routeID: "p", firedRuleIDs: [])
            #expect(cache.answer(for: stored) == nil)
            cache.store(answer, for: stored)
            #expect(cache.answer(for: stored)?.body == answer.body)
            #expect(!cache.admits(other))  // the other key's first miss takes the slot
            #expect(cache.answer(for: stored) == nil)
            #expect(!cache.admits(stored))  // the stored key's miss takes it back
            #expect(cache.answer(for: stored)?.body == answer.body)
            #expect(cache.answer(for: other) == nil)
        }

        @Test("a hot answer (one shared libmicrohttpd response) is the same on every connection, and HEAD has no body")
        func sharedResponse() async throws {
            let server = try await InProcessServer(config: .demo())
            let first = try server.client().resolve("shopapp://product/42")
            let clients = try (0..<3).map { _ in try server.client() }
            for _ in 0..<20 {
                for client in clients {
                    let again = try client.resolve("shopapp://product/42")
                    #expect(again.status == 200 && again.body == first.body)
                    #expect(again.header("Content-Length") == String(first.body.count))
                }
            }
            let head = try clients[0].request("HEAD", "/resolve?url=shopapp%3A%2F%2Fproduct%2F42")
            #expect(head.status == 200 && head.body.isEmpty)
            #expect(head.header("Content-Type") == "application/json; charset=utf-8")
            // The connection is still usable after the HEAD.
            #expect(try clients[0].resolve("shopapp://product/42").body == first.body)
        }

        @Test("an admin rule pushed after an answer was cached changes the next answer")
        func newSnapshotStartsEmpty() async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            #expect(try client.resolve("shopapp://p/9").status == 404)
            #expect(try client.resolve("shopapp://p/9").status == 404)
            let rule = #"{"id":"promo","match":"^shopapp://p/([0-9]+)","target":"shopapp://product/$1"}"#
            #expect(try client.admin("POST", "/admin/rules", json: rule).status == 201)
            let after = try client.resolve("shopapp://p/9")
            #expect(after.status == 200)
            #expect(after.json["ruleIds"] as? [String] == ["promo"])
        }

        @Test("a changed route file is answered at once after the reload, not from the old cache")
        func reloadStartsEmpty() async throws {
            let config = try TestConfig.minimal(routes: ["a.yaml": "module: a\nroutes:\n  - { id: one, pattern: /x/:id }\n"])
            let server = try await InProcessServer(config: config)
            let client = try server.client()
            #expect(try client.resolve("shopapp://x/1").json["routeId"] as? String == "one")
            try config.write("routes.d/a.yaml", "module: a\nroutes:\n  - { id: two, pattern: /x/:id }\n")
            #expect(try client.admin("POST", "/admin/reload").status == 200)
            #expect(try client.resolve("shopapp://x/1").json["routeId"] as? String == "two")
        }

        @Test("when a rule looks at the platform, the X-App-Platform header is part of the key")
        func appHeadersAreKeyed() async throws {
            let config = try TestConfig.minimal(
                routes: ["a.yaml": "module: a\nroutes:\n  - { id: home, pattern: /home }\n  - { id: ios, pattern: /ios-home }\n"],
                rewrites: """
                    rules:
                      - id: ios-home
                        match: '^shopapp://home$'
                        target: 'shopapp://ios-home'
                        when: { platform: [ios] }
                    """)
            let server = try await InProcessServer(config: config)
            let client = try server.client()
            func route(_ platform: String?) throws -> String? {
                let headers = platform.map { [("X-App-Platform", $0)] } ?? []
                return try client.request("GET", "/resolve?url=shopapp%3A%2F%2Fhome", headers: headers).json["routeId"] as? String
            }
            for _ in 0..<2 {
                #expect(try route("ios") == "ios")
                #expect(try route("android") == "home")
                #expect(try route(nil) == "home")
            }
            #expect(server.application.context.snapshot.resolveCache.keysOnAppHeaders)
        }

        @Test("a rule with a time window keeps only its own links out of the cache; resolve_cache_bytes: 0 turns it off")
        func disabled() async throws {
            let timed = ResolveCache(budgetBytes: 1 << 20, dependence: .init(app: false, clock: true))
            #expect(timed.isEnabled)
            // The demo's deals-in-apps rule has a time window: the deals link is tried against it
            // and never cached; the product link is no concern of that rule and is.
            let demo = try await InProcessServer(config: .demo())
            let demoClient = try demo.client()
            for _ in 0..<4 {
                #expect(try demoClient.resolve("shopapp://deals", extraQuery: "&platform=ios&appVersion=5.3.0").status == 200)
            }
            #expect(demo.application.context.snapshot.resolveCache.count == 0)
            for _ in 0..<3 { #expect(try demoClient.resolve("shopapp://product/42").status == 200) }
            #expect(demo.application.context.snapshot.resolveCache.count == 1)

            let config = try TestConfig.minimal(
                routes: ["a.yaml": "module: a\nroutes:\n  - { id: one, pattern: /x/:id }\n"], settings: "resolve_cache_bytes: 0\n")
            let server = try await InProcessServer(config: config)
            let client = try server.client()
            #expect(try client.resolve("shopapp://x/1").status == 200)
            #expect(try client.resolve("shopapp://x/1").status == 200)
            #expect(!server.application.context.snapshot.resolveCache.isEnabled)
            #expect(server.application.context.snapshot.resolveCache.count == 0)
        }

        @Test("explain answers and failed URLs are not cached")
        func notCached() async throws {
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            #expect(try client.resolve("shopapp://product/42", extraQuery: "&explain=1").json["trace"] != nil)
            #expect(try client.resolve("shopapp://product/42", extraQuery: "&explain=1").json["trace"] != nil)
            #expect(try client.request("GET", "/resolve?url=nope").status == 400)
            #expect(server.application.context.snapshot.resolveCache.count == 0)
        }

        @Test("the cache never holds more than its budget")
        func budget() {
            let budget = 64 * 1024
            let cache = ResolveCache(budgetBytes: budget, dependence: .init(app: false, clock: false))
            let body = [UInt8](repeating: UInt8(ascii: "x"), count: 300)
            for index in 0..<5_000 {
                let request = HTTPRequest(method: "GET", path: "/resolve", query: "url=myapp%3A%2F%2Fp%2F\(index)")
                let key = try! #require(cache.key(for: request))
                cache.store(ResolveCache.Answer(status: 200, body: body, routeID: "p", firedRuleIDs: []), for: key)
                #expect(cache.answer(for: key)?.body == body)
            }
            // Each entry costs at least its body: the count bounds the bytes held.
            #expect(cache.count > 0)
            #expect(cache.count * body.count <= budget)
            let tooLarge = [UInt8](repeating: 0, count: ResolveCache.maximumBodyBytes + 1)
            let key = try! #require(cache.key(for: HTTPRequest(method: "GET", path: "/resolve", query: "url=big")))
            cache.store(ResolveCache.Answer(status: 200, body: tooLarge, routeID: nil, firedRuleIDs: []), for: key)
            #expect(cache.answer(for: key) == nil)
        }
    }
}
