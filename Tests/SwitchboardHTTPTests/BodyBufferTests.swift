import Foundation
import Logging
import SwitchboardHTTP
import SwitchboardTestSupport
import Synchronization
import Testing

/// The one request path over loopback sockets, as the handler sees it: every request comes
/// with the worker thread's body buffer, empty; a body written there is sent as it is, and a
/// JSON answer gets its `Content-Type` from the server.
@Suite("HTTP server: the handler's body buffer over loopback", .blockingIO)
struct BodyBufferTests {
    /// A server with one worker thread whose handler writes the query of `GET /text?…` into the
    /// buffer as a text body (so that bodies of any length follow each other on one
    /// connection), writes `/json?…` as JSON, answers `/own` with a body of its own, and holds
    /// `GET /held` until ``release`` is signalled.
    final class Server: Sendable {
        let server: HTTPServer
        /// Signalled when the handler has taken `GET /held`.
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let logs: CollectingLogHandler.Store

        init() throws {
            var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
            configuration.threadPoolSize = 1
            let (logger, logs) = CollectingLogHandler.logger()
            self.logs = logs
            let (held, release) = (self.held, self.release)
            server = try HTTPServer(configuration: configuration, logger: logger) { request, body in
                // The buffer comes empty, whatever the thread's previous answer left.
                guard body.isEmpty else { return .text(status: 500, "the buffer was not empty") }
                switch request.path {
                case "/text":
                    body.append(contentsOf: Array((request.query ?? "").utf8))
                    return HTTPResponse(
                        status: 201, headers: [("Content-Type", "text/plain"), ("X-Written", "yes")], body: body)
                case "/json":
                    body.append(contentsOf: Array(#"{"query":"\#(request.query ?? "")"}"#.utf8))
                    return .json(status: 203, body)
                case "/held":
                    held.signal()
                    release.wait()
                    body.append(contentsOf: Array(#"{"held":true}"#.utf8))
                    return .json(body)
                default:
                    body.append(contentsOf: Array("left in the buffer".utf8))
                    return .text(status: 202, "own \(request.method)")
                }
            }
            try server.start()
        }

        deinit { server.stopNow() }
    }

    @Test("a body written into the buffer is sent with its headers; a shorter body after a longer one is its own")
    func writtenBodies() throws {
        let server = try Server()
        let client = try HTTPTestClient(port: server.server.boundPort)
        for query in ["a-long-first-body-of-many-bytes", "short", "", String(repeating: "x", count: 5_000), "z"] {
            let response = try client.request("GET", "/text?\(query)")
            #expect(response.status == 201)
            #expect(response.text == query)
            #expect(response.header("Content-Type") == "text/plain")
            #expect(response.header("X-Written") == "yes")
            #expect(response.header("Content-Length") == "\(query.utf8.count)")
        }
        // A body of its own is sent, not what was left in the buffer.
        let own = try client.request("GET", "/own")
        #expect(own.status == 202)
        #expect(own.text == "own GET")
        #expect(try client.request("GET", "/text?after").text == "after")
    }

    @Test("a JSON answer is sent with the JSON content type, once, and only its own body, request after request")
    func jsonAnswers() throws {
        let server = try Server()
        let client = try HTTPTestClient(port: server.server.boundPort)
        for query in ["a-long-first-query-of-many-bytes", "b", String(repeating: "y", count: 3_000)] {
            let response = try client.request("GET", "/json?\(query)")
            #expect(response.status == 203)
            #expect(response.text == #"{"query":"\#(query)"}"#)
            #expect(response.header("Content-Type") == HTTPResponse.jsonContentType)
            #expect(response.headers.filter { $0.name.lowercased() == "content-type" }.count == 1)
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

    @Test("every method gets the buffer: HEAD is answered without the body, POST with it")
    func everyMethod() throws {
        let server = try Server()
        let client = try HTTPTestClient(port: server.server.boundPort)
        let post = try client.request("POST", "/text?posted", body: Array("b".utf8))
        #expect(post.status == 201)
        #expect(post.text == "posted")
        let head = try client.request("HEAD", "/json?x")
        #expect(head.status == 203)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Type") == HTTPResponse.jsonContentType)
    }
}
