import Foundation
import Logging
import SwitchboardHTTP
import SwitchboardTestSupport
import Synchronization
import Testing

/// The HTTP server's direct answerer over real loopback sockets: what it writes is sent, what
/// it declines reaches the handler, and only `GET` is offered to it.
@Suite("HTTP server: direct answers over loopback", .blockingIO)
struct DirectAnswerTests {
    /// A server whose direct answerer writes the query of `GET /direct?…` as the body (so
    /// bodies of any length follow each other on one connection), answers `/whole` with a
    /// finished response, and declines everything else; the handler answers `handler`.
    final class Server: Sendable {
        let server: HTTPServer
        /// The methods of the requests offered to the direct answerer, in order.
        final class Offered: Sendable {
            let methods = Mutex<[String]>([])
        }
        let offered = Offered()
        /// Signalled when the direct answerer has taken `GET /held`, which it answers only once
        /// ``release`` is signalled.
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let logs: CollectingLogHandler.Store

        init() throws {
            var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
            configuration.threadPoolSize = 1
            let (logger, logs) = CollectingLogHandler.logger()
            self.logs = logs
            let offered = self.offered
            let (held, release) = (self.held, self.release)
            server = try HTTPServer(
                configuration: configuration, logger: logger,
                directAnswerer: { request, body in
                    offered.methods.withLock { $0.append(request.method) }
                    // The buffer comes empty, whatever the thread's previous answer left.
                    guard body.isEmpty else { return .written(status: 500, headers: []) }
                    switch request.path {
                    case "/direct":
                        body.append(contentsOf: Array((request.query ?? "").utf8))
                        return .written(status: 201, headers: [("Content-Type", "text/plain"), ("X-Direct", "yes")])
                    case "/json":
                        body.append(contentsOf: Array(#"{"query":"\#(request.query ?? "")"}"#.utf8))
                        return .json(status: 203)
                    case "/held":
                        held.signal()
                        release.wait()
                        body.append(contentsOf: Array(#"{"held":true}"#.utf8))
                        return .json(status: 200)
                    case "/whole":
                        return .response(.text(status: 202, "whole"))
                    default:
                        return .declined
                    }
                }
            ) { request in .text(status: 200, "handler \(request.method) \(request.path)") }
            try server.start()
        }

        deinit { server.stopNow() }
    }

    @Test("the written body and headers are sent; a shorter body after a longer one is exactly its own")
    func writtenAnswers() throws {
        let server = try Server()
        let client = try HTTPTestClient(port: server.server.boundPort)
        for query in ["a-long-first-body-of-many-bytes", "short", "", String(repeating: "x", count: 5_000), "z"] {
            let response = try client.request("GET", "/direct?\(query)")
            #expect(response.status == 201)
            #expect(response.text == query)
            #expect(response.header("X-Direct") == "yes")
            #expect(response.header("Content-Length") == "\(query.utf8.count)")
        }
        let whole = try client.request("GET", "/whole")
        #expect(whole.status == 202)
        #expect(whole.text == "whole")
    }

    @Test("a JSON answer is sent with the JSON content type, and only its own body, request after request")
    func jsonAnswers() throws {
        let server = try Server()
        let client = try HTTPTestClient(port: server.server.boundPort)
        for query in ["a-long-first-query-of-many-bytes", "b", String(repeating: "y", count: 3_000)] {
            let response = try client.request("GET", "/json?\(query)")
            #expect(response.status == 203)
            #expect(response.text == #"{"query":"\#(query)"}"#)
            #expect(response.header("Content-Type") == HTTPResponse.jsonContentType)
            #expect(response.header("Content-Length") == "\(response.body.count)")
        }
    }

    @Test("a JSON answer made while the server drains closes its connection")
    func jsonAnswerWhileDraining() async throws {
        let server = try Server()
        // Should an expectation fail early, the worker is released all the same, so that the
        // server can stop.
        defer { server.release.signal() }
        let client = try HTTPTestClient(port: server.server.boundPort, timeout: .seconds(60))
        try client.send("GET /held HTTP/1.1\r\nHost: x\r\n\r\n")
        // A loaded machine may take seconds for each step: the deadlines only bound a hang.
        try #require(server.held.wait(timeout: .now() + 30) == .success)
        let shutdown = Task { await server.server.shutdown(grace: .seconds(60)) }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(30))
        var draining = false
        while !draining, clock.now < deadline {
            draining = server.logs.all.contains { $0.message == "HTTP server shutting down" }
            if !draining { try await Task.sleep(for: .milliseconds(10)) }
        }
        // Answered only once the server drains, so that the answer must close its connection.
        try #require(draining, "the server did not begin to drain")
        server.release.signal()
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(response.text == #"{"held":true}"#)
        #expect(response.header("Content-Type") == HTTPResponse.jsonContentType)
        #expect(response.header("Connection")?.lowercased() == "close")
        await shutdown.value
    }

    @Test("declined requests and other methods reach the handler; only GET is offered")
    func declinedAndOtherMethods() throws {
        let server = try Server()
        let client = try HTTPTestClient(port: server.server.boundPort)
        #expect(try client.request("GET", "/other").text == "handler GET /other")
        #expect(try client.request("POST", "/direct?x", body: Array("b".utf8)).text == "handler POST /direct")
        let head = try client.request("HEAD", "/direct?x")
        #expect(head.status == 200)
        #expect(server.offered.methods.withLock { $0 } == ["GET"])
    }
}
