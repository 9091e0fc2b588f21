import Foundation
import Logging
import ServiceLifecycle
import SwitchboardHTTP
import SwitchboardTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The HTTP layer over real loopback sockets, with a real (hand-written) HTTP/1.1 client.
@Suite("HTTP server over loopback", .blockingIO)
struct HTTPServerTests {
    @Test("port 0 gives a real port, and the chosen port is logged")
    func portZeroGivesRealPort() throws {
        let echo = try EchoServer()
        #expect(echo.port > 0 && echo.port <= 65_535)
        let listening = echo.logs.all.first { $0.message == "HTTP server listening" }
        #expect(listening?.metadata["address"]?.description == "127.0.0.1:\(echo.port)")
        let response = try echo.client().request("GET", "/")
        #expect(response.status == 200)
        // libmicrohttpd had nothing to complain about (e.g. the logger option not first).
        #expect(!echo.logs.all.contains { $0.message.hasPrefix("libmicrohttpd:") })
    }

    @Test("GET keeps the raw path and query exactly as sent")
    func rawQueryPreserved() throws {
        let echo = try EchoServer()
        let client = try echo.client()
        let response = try client.request("GET", "/p%20q/a+b/%2F?a=1&a=2&b=%2B+x", headers: [("X-Test", "yes")])
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json; charset=utf-8")
        let echoed = try response.echoed()
        #expect(echoed.method == "GET")
        #expect(echoed.path == "/p%20q/a+b/%2F")
        #expect(echoed.query == "a=1&a=2&b=%2B+x")
        #expect(echoed.xTest == "yes")
        #expect(echoed.headers.contains(["X-Test", "yes"]))
        #expect(echoed.headers.first == ["Host", "localhost"])
        #expect(echoed.remoteAddress == "127.0.0.1")
        #expect(echoed.body == "")
    }

    @Test("every request of a keep-alive connection knows the peer's address")
    func remoteAddressOnEveryRequest() throws {
        let echo = try EchoServer()
        let client = try echo.client()
        for index in 0..<5 {
            let echoed = try client.request("GET", "/r\(index)").echoed()
            #expect(echoed.path == "/r\(index)")
            #expect(echoed.remoteAddress == "127.0.0.1")
        }
    }

    @Test("no query is nil, an empty query is an empty string")
    func emptyAndMissingQuery() throws {
        let echo = try EchoServer()
        let client = try echo.client()
        #expect(try client.request("GET", "/x").echoed().query == nil)
        #expect(try client.request("GET", "/x?").echoed().query == "")
    }

    @Test("repeated headers are all kept, in order")
    func repeatedHeaders() throws {
        let echo = try EchoServer()
        let response = try echo.client().request("GET", "/", headers: [("X-A", "1"), ("x-a", "2")])
        let echoed = try response.echoed()
        #expect(echoed.headers.filter { $0[0].lowercased() == "x-a" }.map { $0[1] } == ["1", "2"])
    }

    @Test("an app's header fields all reach the handler, in order, trailing whitespace trimmed")
    func appHeaderFields() throws {
        let echo = try EchoServer()
        let sent: [HTTPRequest.Header] = [
            ("User-Agent", "ShopApp/5.12.3 (iPhone; iOS 17.4.1; Scale/3.00) Alamofire/5.8.1"),
            ("Accept", "application/json, text/plain, */*"),
            ("Accept-Language", "en-GB;q=1.0, de-GB;q=0.9, fr-GB;q=0.8"),
            ("X-App-Platform", "ios \t "),
            ("X-Empty", ""),
            ("X-Request-Id", "8c1f0e7a-3b52-4a8e-9f1d-2b6c7d9e0a41"),
            ("x-request-id", "second"),
            ("Authorization", "Bearer " + String(repeating: "t", count: 2_000)),
        ]
        let client = try echo.client()
        for _ in 0..<2 {  // and again on the same connection
            let echoed = try client.request("GET", "/", headers: sent).echoed()
            let expected = [["Host", "localhost"]] + sent.map { [$0.name, $0.name == "X-App-Platform" ? "ios" : $0.value] }
            #expect(echoed.headers == expected)
        }
    }

    @Test("a field value with bytes that are not UTF-8 (obs-text) reads with replacement characters")
    func obsTextValue() throws {
        let echo = try EchoServer()
        let client = try echo.client()
        try client.send(Array("GET /o HTTP/1.1\r\nHost: localhost\r\nX-Obs: caf".utf8) + [0xE9, 0xFF] + Array("\r\n\r\n".utf8))
        let echoed = try client.readResponse().echoed()
        #expect(echoed.headers.last == ["X-Obs", "caf\u{FFFD}\u{FFFD}"])
    }

    @Test("POST body is echoed")
    func postBodyEcho() throws {
        let echo = try EchoServer()
        let body = Array(#"{"rules": [{"id": "r1", "match": "ä€😀"}]}"#.utf8)
        let response = try echo.client().request(
            "POST", "/admin/rules", headers: [("Content-Type", "application/json")], body: body)
        #expect(response.status == 200)
        let echoed = try response.echoed()
        #expect(echoed.method == "POST")
        #expect(Array(echoed.body.utf8) == body)
    }

    @Test("a chunked body under the limit arrives de-chunked")
    func chunkedBodyEcho() throws {
        let echo = try EchoServer()
        let client = try echo.client()
        let body = Array(String(repeating: "0123456789", count: 5_000).utf8)
        try client.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        try client.send(RawRequest.chunkedBody(body, chunkSize: 4_000))
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(try Array(response.echoed().body.utf8) == body)
    }

    @Test("one keep-alive connection serves 100 requests")
    func keepAliveReuse() throws {
        let echo = try EchoServer()
        let client = try echo.client()
        for index in 0..<100 {
            let response = try client.request("GET", "/n?i=\(index)")
            #expect(response.status == 200)
            #expect(response.header("Connection")?.lowercased() != "close")
            #expect(try response.echoed().query == "i=\(index)")
        }
        #expect(try client.waitForClose(timeout: .milliseconds(50)) == false)
    }

    @Test("pipelined requests are answered in order")
    func pipelining() throws {
        let echo = try EchoServer()
        let client = try echo.client()
        try client.send((0..<5).map { "GET /p?i=\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
        for index in 0..<5 {
            #expect(try client.readResponse().echoed().query == "i=\(index)")
        }
    }

    @Test("a 9 KiB URL gets 414 with the JSON error body")
    func urlTooLong() throws {
        let echo = try EchoServer()
        let client = try echo.client()
        let target = "/resolve?url=" + String(repeating: "a", count: 9 * 1024)
        let response = try client.request("GET", target)
        #expect(response.status == 414)
        #expect(response.header("Content-Type") == "application/json; charset=utf-8")
        #expect(try response.errorBody().code == "url_too_long")
        #expect(try client.waitForClose())
        // A URL of exactly the limit is fine, even with 8 KB of headers (the default
        // connection memory leaves about 10 KB beside it).
        let atLimit = "/r?u=" + String(repeating: "b", count: 8 * 1024 - 5)
        let headers = (0..<80).map { ("X-Header-\($0)", String(repeating: "h", count: 86)) }
        let served = try echo.client().request("GET", atLimit, headers: headers)
        #expect(served.status == 200)
        #expect(try served.echoed().query?.utf8.count == 8 * 1024 - 3)  // "/r?" is not in the query
        // A long URL and headers together still get the JSON 414.
        let both = try echo.client().request("GET", target, headers: headers)
        #expect(both.status == 414)
        #expect(try both.errorBody().code == "url_too_long")
    }

    @Test("Content-Length of 2 MiB gets 413 at once, before any body is sent")
    func contentLengthTooLarge() throws {
        let echo = try EchoServer()
        let (client, response) = try echo.exchange(
            raw: "POST /admin/rules HTTP/1.1\r\nHost: x\r\nContent-Length: \(2 * 1024 * 1024)\r\n\r\n")
        #expect(response.status == 413)
        #expect(try response.errorBody().code == "body_too_large")
        #expect(try client.waitForClose())
    }

    @Test("Expect: 100-continue with a too-large body gets 413 and no 100")
    func expectContinueTooLarge() throws {
        let echo = try EchoServer()
        let client = try echo.client(timeout: .seconds(3))
        try client.send(
            "POST /x HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: \(5 * 1024 * 1024)\r\n\r\n")
        #expect(try client.readResponse().status == 413)
    }

    @Test("a chunked body over the limit gets 413 and the connection is closed")
    func chunkedTooLarge() throws {
        let echo = try EchoServer()
        let client = try echo.client()
        try client.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        try client.send(
            RawRequest.chunkedBody([UInt8](repeating: 65, count: 1024 * 1024 + 64 * 1024), chunkSize: 64 * 1024))
        let response = try client.readResponse()
        #expect(response.status == 413)
        #expect(response.header("Connection")?.lowercased() == "close")
        #expect(try response.errorBody().code == "body_too_large")
        #expect(try client.waitForClose())
    }

    @Test("an endless chunked body is cut off after the discard allowance")
    func endlessChunkedBodyDropped() throws {
        let echo = try EchoServer {
            $0.maxBodySize = 1024
            $0.maxDiscardedBodySize = 4096
        }
        let client = try echo.client(timeout: .seconds(3))
        try client.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        var dropped = false
        for _ in 0..<200 {
            do {
                try client.send(Array("400\r\n".utf8) + [UInt8](repeating: 66, count: 1024) + [13, 10])
            } catch {
                dropped = true
                break
            }
            if try client.waitForClose(timeout: .milliseconds(5)) {
                dropped = true
                break
            }
        }
        #expect(dropped)
        #expect(try echo.client().request("GET", "/").status == 200)
    }

    @Test(
        "malformed requests get a 4xx, and the server keeps serving",
        arguments: [
            "GET / HTTQ/1.1\r\nHost: x\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: x\r\nNoColonHere\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
            "GET / HTTP/1.1\r\n\r\n",
            "GET /a b HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /a\u{01}b HTTP/1.1\r\nHost: x\r\n\r\n",
            "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n",
        ])
    func malformedRequest(raw: String) throws {
        let echo = try EchoServer()
        let client = try echo.client(timeout: .seconds(3))
        try client.send(raw)
        do {
            let response = try client.readResponse()
            #expect((400..<500).contains(response.status), "\(raw.debugDescription) → \(response.status)")
        } catch {
            Issue.record("no 4xx for \(raw.debugDescription): \(error)")
        }
        #expect(try echo.client().request("GET", "/after").status == 200)
    }

    /// libmicrohttpd 0.9.75 closes the connection without an answer when the request line
    /// has no space at all (`parse_initial_message_line` fails before any hook runs).
    /// (A line starting with NUL counts as an empty line and waits for the connection
    /// timeout.)
    @Test(
        "a request line without spaces is dropped or answered 4xx, never served or hung",
        arguments: ["GARBAGE\r\n\r\n", "GET\r\n\r\n", "GET/index.html\r\nHost: x\r\n\r\n"])
    func unparseableRequestLine(raw: String) throws {
        let echo = try EchoServer()
        let client = try echo.client(timeout: .seconds(3))
        try client.send(raw)
        do {
            let response = try client.readResponse()
            #expect((400..<500).contains(response.status), "\(raw.debugDescription) → \(response.status)")
        } catch let error as HTTPTestClientError {
            #expect(error.description.contains("closed"), "\(raw.debugDescription): \(error)")
        }
        #expect(try echo.client().request("GET", "/after").status == 200)
    }

    @Test("a request target that is not UTF-8 gets 400 bad_request")
    func nonUTF8Target() throws {
        let echo = try EchoServer()
        let client = try echo.client()
        try client.send(Array("GET /caf".utf8) + [0xE9] + Array(" HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        let response = try client.readResponse()
        #expect(response.status == 400)
        #expect(try response.errorBody().code == "bad_request")
    }

    @Test("a response header the handler got wrong becomes a 500 JSON error, not a split header")
    func badResponseHeader() throws {
        let echo = try EchoServer()
        let response = try echo.client().request("GET", "/bad-header")
        #expect(response.status == 500)
        #expect(response.header("Set-Cookie") == nil)
        #expect(try response.errorBody().code == "internal_error")
        #expect(echo.logs.all.contains { $0.level == .error && $0.message.contains("X-Evil") })
    }

    @Test("the response's request id goes out as X-Request-Id, checked like any header value")
    func requestIDSlot() throws {
        let echo = try EchoServer()
        let client = try echo.client()
        let answered = try client.request("GET", "/request-id", headers: [("X-Test", "req-42")])
        #expect(answered.status == 200)
        #expect(answered.header("X-Request-Id") == "req-42")
        #expect(try client.request("GET", "/request-id").header("X-Request-Id") == nil)
        let forged = try echo.client().request("GET", "/request-id?bad")
        #expect(forged.status == 500)
        #expect(forged.header("Set-Cookie") == nil)
        #expect(try forged.errorBody().code == "internal_error")
    }

    @Test("HEAD gets headers and no body")
    func headRequest() throws {
        let echo = try EchoServer()
        let client = try echo.client()
        let response = try client.request("HEAD", "/x")
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(try client.request("GET", "/y").status == 200)
    }

    @Test(
        "300 concurrent connections are all answered",
        arguments: [
            HTTPThreadingMode.pollThreadPool, .epollThreadPool, .threadPerConnection,
        ])
    func manyConcurrentConnections(mode: HTTPThreadingMode) throws {
        let echo = try EchoServer { configuration in
            configuration.threadingMode = mode
            configuration.maxConnectionsPerClient = 1024  // every client here is 127.0.0.1
            if mode == .epollThreadPool {
                configuration.threadPoolSize = 3
                // 336 + its room of 42 = 3 × 126: the most three epoll workers may hold.
                configuration.maxConnections = 336
            }
        }
        // All 300 connections are open at once; one thread drives them (bounded, no pool).
        var clients: [HTTPTestClient] = []
        for _ in 0..<300 { clients.append(try echo.client()) }
        for (index, client) in clients.enumerated() {
            try client.send("GET /c?i=\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
        }
        var answered = 0
        for (index, client) in clients.enumerated() {
            let response = try client.readResponse()
            if response.status == 200, try response.echoed().query == "i=\(index)" { answered += 1 }
        }
        #expect(answered == 300)
        // And each connection is still usable (keep-alive).
        for (index, client) in clients.enumerated() where index % 10 == 0 {
            #expect(try client.request("GET", "/again").status == 200)
        }
    }

    @Test("graceful shutdown finishes an in-flight slow request and refuses new connections")
    func gracefulShutdown() async throws {
        let echo = try EchoServer(slowDelay: .seconds(4))
        let port = echo.port
        let client = try echo.client()
        try client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        let clock = ContinuousClock()
        let startDeadline = clock.now.advanced(by: .seconds(5))
        // Blocking sleeps in this test (see waitForSlowRequest), as the refusal window is short.
        echo.waitForSlowRequest()
        #expect(echo.slowRequestsStarted == 1)
        #expect(echo.server.inFlightRequestCount == 1)

        let server = echo.server
        // On an executor of its own: this test blocks its own executor, and other suites may
        // hold the cooperative pool.
        let shutdown = Task(executorPreference: DispatchQueueTaskExecutor(label: "switchboard.tests.shutdown")) {
            await server.shutdown(grace: .seconds(10))
        }

        // While the slow request is still running, new connections are refused.
        var refused = false
        let refuseDeadline = clock.now.advanced(by: .seconds(1))
        while !refused, clock.now < refuseDeadline {
            do {
                _ = try HTTPTestClient(port: port, timeout: .seconds(1))
                _ = usleep(10_000)
            } catch {
                refused = true
            }
        }
        #expect(refused)

        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(try response.echoed().path == "/slow")
        #expect(response.header("Connection")?.lowercased() == "close")
        // The drain ends when the last request does, long before the grace period.
        await shutdown.value
        #expect(clock.now < startDeadline.advanced(by: .seconds(5)))
        #expect(throws: HTTPTestClientError.self) { try HTTPTestClient(port: port, timeout: .seconds(1)) }
        #expect(echo.logs.all.contains { $0.message == "HTTP server stopped" })
    }

    @Test("a write still running off the worker when the grace ends is closed, and its late answer is dropped")
    func aSuspendedRequestOutlivingTheGrace() async throws {
        let echo = try EchoServer(slowDelay: .seconds(3))
        let client = try echo.client()
        // Not GET or HEAD: it runs off MHD's threads, its connection suspended.
        try client.send("POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        echo.waitForSlowRequest()
        #expect(echo.slowRequestsStarted == 1)
        let server = echo.server
        let clock = ContinuousClock()
        let started = clock.now
        // libmicrohttpd aborts the process when it stops with a suspended connection.
        await Task(executorPreference: DispatchQueueTaskExecutor(label: "switchboard.tests.shutdown")) {
            await server.shutdown(grace: .milliseconds(200))
        }.value
        #expect(clock.now - started < .seconds(2))
        #expect(echo.logs.all.contains { $0.message == "HTTP server stopped" })
        // The connection ends: closed unanswered, or, when a worker got to the resumed
        // connection before the daemon closed it, answered 503 and closed.
        if try !client.waitForClose(timeout: .seconds(5)) {
            let response = try client.readResponse(method: "POST")
            #expect(response.status == 503, "\(response.status)")
            #expect(try client.waitForClose(timeout: .seconds(5)))
        }
        // The handler ends after the daemon: its answer has nowhere to go and is dropped.
        echo.releaseSlowRequests()
        _ = usleep(200_000)
    }

    @Test("waitUntilStopped returns once shutdown has run; a second shutdown is harmless")
    func waitUntilStopped() async throws {
        let echo = try EchoServer()
        let server = echo.server
        let waiter = Task { await server.waitUntilStopped() }
        await server.shutdown(grace: .seconds(1))
        await waiter.value
        await server.shutdown(grace: .seconds(1))
        await server.waitUntilStopped()
    }

    @Test("as a service, the server drains when its group shuts down gracefully, at once when idle")
    func serviceGroupShutdown() async throws {
        // The slow request is answered only once the server has begun to drain (however long
        // the group's actor waits for a thread of the cooperative pool on a loaded machine), so
        // its answer must close the connection; the grace period is far longer.
        let echo = try EchoServer(configure: { $0.shutdownGrace = .seconds(60) }, slowDelay: .seconds(40))
        let (logger, _) = CollectingLogHandler.logger()
        let group = ServiceGroup(services: [echo.server], logger: logger)
        // On an executor of its own: this test blocks its own executor, and other suites may
        // hold the cooperative pool.
        let running = Task(executorPreference: DispatchQueueTaskExecutor(label: "switchboard.tests.group")) {
            try await group.run()
        }
        let client = try echo.client()
        try client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        echo.waitForSlowRequest()
        let clock = ContinuousClock()
        let started = clock.now
        await group.triggerGracefulShutdown()
        #expect(echo.waitForLog("HTTP server shutting down"))
        echo.releaseSlowRequests()
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(response.header("Connection")?.lowercased() == "close")
        try await running.value
        // The grace period is 60 s; the group ends once the slow request has been answered.
        #expect(clock.now - started < .seconds(30))
        #expect(throws: HTTPTestClientError.self) { try HTTPTestClient(port: echo.port, timeout: .seconds(1)) }
    }

    @Test("start twice is an invalid_state error; a busy port is start_failed with the reason")
    func startErrors() throws {
        let echo = try EchoServer()
        #expect {
            try echo.server.start()
        } throws: { error in
            (error as? HTTPServerError)?.code == .invalidState
        }
        let (logger, _) = CollectingLogHandler.logger()
        let second = try HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: echo.port), logger: logger
        ) { _, _ in .text("x") }
        #expect {
            try second.start()
        } throws: { error in
            guard let error = error as? HTTPServerError else { return false }
            return error.code == .startFailed && error.description.contains("\(echo.port)")
        }
    }

    @Test("IPv6 loopback works when the machine has it")
    func ipv6Loopback() throws {
        var configuration = try HTTPServerConfiguration(listen: "[::1]:0")
        configuration.threadPoolSize = 1
        let (logger, _) = CollectingLogHandler.logger()
        let server = try HTTPServer(configuration: configuration, logger: logger) { request, _ in
            .text(request.remoteAddress ?? "none")
        }
        do {
            try server.start()
        } catch {
            return  // no IPv6 on this host: nothing to test
        }
        defer { server.stopNow() }
        let response = try HTTPTestClient(host: "::1", port: server.boundPort).request("GET", "/")
        #expect(response.status == 200)
        #expect(response.text == "::1")
    }
}

/// A thread-safe boolean that can only be raised.
final class Flag: Sendable {
    private let value = Atomic<Bool>(false)

    func set() { value.store(true, ordering: .releasing) }

    var isSet: Bool { value.load(ordering: .acquiring) }
}
