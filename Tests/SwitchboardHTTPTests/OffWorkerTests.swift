import Foundation
import Logging
import SwitchboardHTTP
import SwitchboardTestSupport
import Testing

/// The requests the application runs off the worker threads, over loopback: the policy picks
/// them, they run on its executor, and a full executor answers `503 server_busy` at once.
@Suite("HTTP server: requests run off the worker", .blockingIO)
struct OffWorkerTests {
    /// A server whose policy sends `/off` to an executor of one thread and a queue of one;
    /// `/off?hold` waits for ``release`` there.
    final class Server: Sendable {
        let server: HTTPServer
        let executor = BlockingExecutor(name: "test.off", threads: 1, queueLimit: 1)
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)

        init() throws {
            var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
            configuration.threadPoolSize = 1
            let (logger, _) = CollectingLogHandler.logger()
            let (held, release) = (self.held, self.release)
            server = try HTTPServer(
                configuration: configuration, logger: logger,
                offWorker: OffWorkerPolicy(executor: executor) { $0.path == "/off" }
            ) { request, _ in
                if request.query == "hold" {
                    held.signal()
                    release.wait()
                }
                return .text("\(request.method) \(request.path) on \(BlockingExecutorTests.threadName())")
            }
            try server.start()
        }

        deinit { server.stopNow() }
    }

    @Test("the policy decides: a GET it names runs on the executor, a POST it does not name on the worker")
    func policyDecides() throws {
        let server = try Server()
        let client = try HTTPTestClient(port: server.server.boundPort)
        #expect(try client.request("GET", "/off").text.hasPrefix("GET /off on test.off-"))
        #expect(!(try client.request("POST", "/on", body: Array("b".utf8)).text.contains("test.off")))
    }

    @Test("with the executor busy and its queue full, a request is answered 503 server_busy at once")
    func fullExecutorAnswersBusy() throws {
        let server = try Server()
        defer { server.release.signal() }
        let holding = try HTTPTestClient(port: server.server.boundPort, timeout: .seconds(60))
        try holding.send("GET /off?hold HTTP/1.1\r\nHost: x\r\n\r\n")
        try #require(server.held.wait(timeout: .now() + 30) == .success)
        let queued = try HTTPTestClient(port: server.server.boundPort, timeout: .seconds(60))
        try queued.send("GET /off HTTP/1.1\r\nHost: x\r\n\r\n")
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(30))
        while server.executor.queuedCount == 0, clock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
        try #require(server.executor.queuedCount == 1)
        let busy = try HTTPTestClient(port: server.server.boundPort, timeout: .seconds(10)).request("GET", "/off")
        #expect(busy.status == 503)
        #expect(busy.text.hasPrefix("server_busy:"))
        #expect(busy.header("Retry-After") == "1")
        // The worker still serves everything else meanwhile.
        #expect(try HTTPTestClient(port: server.server.boundPort).request("GET", "/on").status == 200)
        server.release.signal()
        #expect(try holding.readResponse().status == 200)
        #expect(try queued.readResponse().status == 200)
    }
}
