import Foundation
import SwitchboardCore
import SwitchboardStore
import SwitchboardTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension IntegrationTests {
    /// The `switchboard serve` executable as a child process: durability across `kill -9`, a
    /// corrupt state file, SIGHUP and SIGTERM (design.md §5, §6, §8).
    @Suite("switchboard serve as a process")
    struct ProcessTests {
        @Test("an acknowledged admin change survives kill -9; data_dir holds the snapshot and the change log")
        func survivesKill9() async throws {
            let config = try TestConfig.demo()
            let first = try ServerProcess(config: config, logName: "first.log")
            try await first.waitUntilListening()
            let rule = #"{"id":"promo","match":"^shopapp://p/([0-9]+)","target":"shopapp://product/$1"}"#
            let route = #"{"id":"promo.flash","pattern":"/flash/:slot<int>","target":{"page":"FlashSale"}}"#
            let client = try first.client()
            #expect(try client.admin("POST", "/admin/routes", json: route).status == 201)
            let created = try client.admin("POST", "/admin/rules", json: rule)
            #expect(created.status == 201)
            first.send(SIGKILL)
            let killed = try #require(try await first.waitForExit())
            #expect(killed.reason == .uncaughtSignal && killed.status == SIGKILL)

            // The snapshot and the change log after it, and nothing else: no temp file of an
            // interrupted write.
            let state = try FileAdminStore(directory: config.dataDirectory).load()
            #expect(state.version == 2)
            #expect(state.rules.first?.id == "promo" && state.routes.first?.definition.id == "promo.flash")
            #expect(Set(try FileManager.default.contentsOfDirectory(atPath: config.dataDirectory)) == ["state.json", "state.log"])

            let second = try ServerProcess(config: config, logName: "second.log")
            try await second.waitUntilListening()
            let again = try second.client()
            let listed = try again.admin("GET", "/admin/rules")
            #expect(listed.etag == #""2""#)
            #expect((listed.json["rules"] as? [[String: Any]])?.first?["id"] as? String == "promo")
            let resolved = try again.resolve("shopapp://p/9")
            #expect(resolved.status == 200)
            #expect(resolved.json["ruleIds"] as? [String] == ["promo"])
            #expect(try again.resolve("shopapp://flash/2").json["routeId"] as? String == "promo.flash")
            #expect(try again.admin("POST", "/admin/rules", json: rule.replacingOccurrences(of: "promo", with: "promo2")).etag == #""3""#)
        }

        @Test("kill -9 at any instant under writes, again and again: every acknowledged write is there after the restart")
        func killsUnderWritesLoseNothingAcknowledged() async throws {
            let config = try TestConfig.demo()
            var acknowledged: [String] = []
            // Long targets, so that the change log is compacted into the snapshot now and then.
            let padding = String(repeating: "p", count: 900)
            for round in 0..<6 {
                let server = try ServerProcess(config: config, logName: "round\(round).log")
                try await server.waitUntilListening()
                let listed = try server.client().admin("GET", "/admin/rules").json["rules"] as? [[String: Any]] ?? []
                let ids = Set(listed.compactMap { $0["id"] as? String })
                #expect(acknowledged.allSatisfy(ids.contains), "round \(round): lost \(acknowledged.filter { !ids.contains($0) })")
                let port = server.port
                let written = Mutex<[String]>([])
                let writer = Thread {
                    guard let client = try? HTTPTestClient(port: port) else { return }
                    for index in 0... {
                        let id = "k\(round)_\(index)"
                        let rule = #"{"id":"\#(id)","match":"^\#(id)://","target":"shopapp://\#(padding)"}"#
                        guard (try? client.admin("POST", "/admin/rules", json: rule).status) == 201 else { return }
                        written.withLock { $0.append(id) }
                    }
                }
                writer.start()
                try await Task.sleep(for: .milliseconds(150 + 60 * round))
                server.send(SIGKILL)
                _ = try await server.waitForExit()
                while writer.isExecuting { try await Task.sleep(for: .milliseconds(10)) }
                acknowledged += written.withLock { $0 }
            }
            let last = try ServerProcess(config: config, logName: "last.log")
            try await last.waitUntilListening()
            let listed = try last.client().admin("GET", "/admin/rules").json["rules"] as? [[String: Any]] ?? []
            let ids = Set(listed.compactMap { $0["id"] as? String })
            #expect(acknowledged.count > 20 && acknowledged.allSatisfy(ids.contains))
            let files = Set(try FileManager.default.contentsOfDirectory(atPath: config.dataDirectory))
            #expect(files.isSubset(of: ["state.json", "state.log"]), "\(files)")
        }

        @Test("the temporary file of a write a kill interrupted is removed at the next start, the state kept")
        func crashLeftoversAreRemovedAtStart() async throws {
            let config = try TestConfig.demo()
            let first = try ServerProcess(config: config, logName: "first.log")
            try await first.waitUntilListening()
            #expect(
                try first.client().admin("POST", "/admin/rules", json: #"{"id":"kept","match":"^kept://","target":"shopapp://me"}"#).status
                    == 201)
            first.send(SIGKILL)
            _ = try await first.waitForExit()
            // What a kill between writing the temporary copy and renaming it leaves: named after
            // the killed writer's pid, which is not alive any more.
            let leftover = config.dataDirectory + "/.state.json.\(first.process.processIdentifier).tmp"
            try Data("{\"version\": 99, \"rules\": [], \"routes\": []}".utf8).write(to: URL(fileURLWithPath: leftover))

            let second = try ServerProcess(config: config, logName: "second.log")
            try await second.waitUntilListening()
            #expect(!FileManager.default.fileExists(atPath: leftover))
            let listed = try second.client().admin("GET", "/admin/rules")
            #expect(listed.etag == #""1""#)
        }

        @Test("a corrupt state file stops startup with a message naming it, and is left untouched")
        func corruptStateFile() async throws {
            let config = try TestConfig.demo()
            try FileManager.default.createDirectory(atPath: config.dataDirectory, withIntermediateDirectories: true)
            for garbage in [Array("{\"version\": 3, \"rules\": [".utf8), [0x00, 0xFF, 0x13, 0x37], Array("{}".utf8)] {
                try Data(garbage).write(to: URL(fileURLWithPath: config.stateFile))
                let process = try ServerProcess(config: config)
                let exit = try #require(try await process.waitForExit(), "still running with a corrupt state file")
                #expect(exit.reason == .exit && exit.status != 0)
                #expect(process.log.contains(config.stateFile), "\(process.log)")
                #expect(ServerProcess.listeningPort(in: process.log) == nil)
                #expect(try Data(contentsOf: URL(fileURLWithPath: config.stateFile)) == Data(garbage))
            }
        }

        @Test("a broken config stops startup with a message naming the file and the key")
        func brokenConfigAtStartup() async throws {
            let config = try TestConfig.demo()
            try config.write("routes.d/cart.yaml", try config.read("routes.d/cart.yaml") + "    tagret: { page: X }\n")
            let process = try ServerProcess(config: config)
            let exit = try #require(try await process.waitForExit(), "still running with a broken config")
            #expect(exit.reason == .exit && exit.status != 0)
            #expect(process.log.contains("routes.d/cart.yaml") && process.log.contains("tagret"), "\(process.log)")
        }

        @Test("SIGHUP reloads the config")
        func sighupReloads() async throws {
            let config = try TestConfig.demo()
            let process = try ServerProcess(config: config)
            try await process.waitUntilListening()
            let client = try process.client()
            #expect(
                try client.admin("GET", "/admin/status").json["lastReload"].flatMap { ($0 as? [String: Any])?["trigger"] as? String }
                    == "startup")
            process.send(SIGHUP)
            var status: [String: Any] = [:]
            let reloaded = try await eventually {
                status = try client.admin("GET", "/admin/status").json["lastReload"] as? [String: Any] ?? [:]
                return status["trigger"] as? String == "SIGHUP"
            }
            #expect(reloaded, "\(status)\n\(process.log)")
            #expect(status["ok"] as? Bool == true)
            let metrics = try client.request("GET", "/metrics").text
            #expect(metricValue(metrics, #"switchboard_reloads_total{result="ok"}"#) == 1)
            #expect(try client.resolve("shopapp://product/1").status == 200)
            // Still running and serving.
            #expect(process.process.isRunning)
        }

        @Test("SIGTERM lets a request in flight finish: a reload under way answers, then the process exits 0")
        func sigtermFinishesRequestsInFlight() async throws {
            let config = try TestConfig.demo()
            let process = try ServerProcess(config: config)
            try await process.waitUntilListening()
            // Enough routes that the reload is still running when the signal arrives.
            try config.write("routes.d/bulk.json", IntegrationTests.HotReloadTests.bulkFile(count: 50_000))
            let client = try process.client(timeout: .seconds(30))
            try client.send(
                "POST /admin/reload HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(TestToken.admin)\r\nContent-Length: 0\r\n\r\n")
            try await Task.sleep(for: .milliseconds(50))
            process.send(SIGTERM)
            let response = try client.readResponse()
            #expect(response.status == 200, "\(response.dump)\n\(process.log)")
            #expect(response.json["routes"] as? Int == 36 + 50_000)
            #expect(response.header("Connection")?.lowercased() == "close")
            let exit = try #require(try await process.waitForExit(timeout: .seconds(20)), "still running:\n\(process.log)")
            #expect(exit.reason == .exit && exit.status == 0, "\(process.log)")
            #expect(process.log.contains("HTTP server shutting down"))
        }

        @Test("SIGTERM shuts down gracefully with exit status 0, idle keep-alive connections included")
        func sigtermExitsZero() async throws {
            let config = try TestConfig.demo()
            let process = try ServerProcess(config: config)
            try await process.waitUntilListening()
            let idle = try process.client()
            #expect(try idle.resolve("shopapp://product/1").status == 200)
            process.send(SIGTERM)
            let exit = try #require(try await process.waitForExit(timeout: .seconds(10)), "still running after SIGTERM:\n\(process.log)")
            #expect(exit.reason == .exit)
            #expect(exit.status == 0, "\(process.log)")
            #expect(process.log.contains("switchboard stopped"))
            #expect(try idle.waitForClose(timeout: .seconds(1)))
        }
    }
}
