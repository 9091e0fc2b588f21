import Foundation
import SwitchboardHTTP
import SwitchboardTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Connection limits, request deadlines, closing in stages and framing: what a hostile or
/// careless client meets at the edge (design.md §7), over real loopback sockets.
@Suite("HTTP server at its limits", .blockingIO)
struct HTTPServerEdgeTests {
    /// Opens `count` connections that send nothing and waits until the server holds them all.
    private func idleClients(_ count: Int, on echo: EchoServer) throws -> [HTTPTestClient] {
        let clients = try (0..<count).map { _ in try echo.client() }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(10))
        while echo.server.openConnectionCount < count, clock.now < deadline { _ = usleep(5_000) }
        #expect(echo.server.openConnectionCount >= count)
        return clients
    }

    /// The answer of a fresh echo server to one request sent as raw bytes: a request line and
    /// headers no well-behaved client would write.
    private func answer(toRaw request: [UInt8]) throws -> HTTPTestResponse {
        try EchoServer().exchange(raw: request).response
    }

    @Test("a client over max_connections gets 503 at once, with Retry-After, then close; probes are still answered")
    func overConnectionLimit() throws {
        let echo = try EchoServer {
            $0.maxConnections = 8
            $0.probePaths = ["/healthz"]
        }
        let idle = try idleClients(8, on: echo)
        let clock = ContinuousClock()

        let over = try echo.client(timeout: .seconds(3))
        let started = clock.now
        let refused = try over.request("GET", "/resolve?url=x")
        #expect(clock.now - started < .seconds(1))
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") == "1")
        #expect(refused.header("Connection")?.lowercased() == "close")
        #expect(try refused.errorBody().code == "too_many_connections")
        #expect(try over.waitForClose())

        let probe = try echo.client(timeout: .seconds(3)).request("GET", "/healthz")
        #expect(probe.status == 200)
        #expect(probe.header("Connection")?.lowercased() == "close")

        // Room freed is room served again.
        idle[0].close()
        let deadline = clock.now.advanced(by: .seconds(10))
        var status = 0
        while status != 200, clock.now < deadline {
            status = try echo.client(timeout: .seconds(3)).request("GET", "/again").status
            if status != 200 { _ = usleep(20_000) }
        }
        #expect(status == 200)
    }

    @Test("a client address over max_connections_per_client gets the same 503")
    func overPerClientLimit() throws {
        let echo = try EchoServer { $0.maxConnectionsPerClient = 2 }
        let idle = try idleClients(2, on: echo)
        let refused = try echo.client(timeout: .seconds(3)).request("GET", "/x")
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") == "1")
        #expect(try refused.errorBody().code == "too_many_connections")
        #expect(idle.count == 2)
    }

    @Test("a connection over the limit that sends nothing is answered 503 and closed within its grace")
    func idleOverLimitClosed() throws {
        let echo = try EchoServer { $0.maxConnections = 1 }
        let idle = try idleClients(1, on: echo)
        let silent = try echo.client(timeout: .seconds(10))
        let response = try silent.readResponse()
        #expect(response.status == 503)
        #expect(try silent.waitForClose())
        #expect(idle.count == 1)
    }

    @Test("a request head trickled one byte at a time gets 408 and close after request_timeout")
    func slowHeadTimedOut() throws {
        let echo = try EchoServer { $0.requestTimeout = .seconds(1) }
        let client = try echo.client(timeout: .seconds(5))
        let clock = ContinuousClock()
        let started = clock.now
        try client.send("GET / HTTP/1.1\r\nHost: x\r\n")
        // Well under the 30 s connection timeout: only the request deadline can end it.
        while clock.now - started < .seconds(10) {
            if try client.isReadable(within: .milliseconds(300)) { break }
            do { try client.send("X") } catch { break }
        }
        let response = try client.readResponse()
        #expect(response.status == 408)
        #expect(try response.errorBody().code == "request_timeout")
        #expect(clock.now - started >= .milliseconds(900))
        #expect(clock.now - started < .seconds(8))
        #expect(try client.waitForClose())
        #expect(try echo.client().request("GET", "/after").status == 200)
    }

    @Test("a slow but complete request within request_timeout is served, and keep-alive idling is not cut short")
    func requestWithinDeadline() throws {
        let echo = try EchoServer { $0.requestTimeout = .seconds(2) }
        let client = try echo.client()
        for piece in ["GET /a HTTP/1.1\r\n", "Host: x\r\n", "\r\n"] {
            try client.send(piece)
            _ = usleep(200_000)
        }
        #expect(try client.readResponse().status == 200)
        // Idle longer than request_timeout between keep-alive requests.
        _ = usleep(2_500_000)
        #expect(try client.request("GET", "/b").status == 200)
    }

    @Test("a client that sends a whole oversized body before reading still reads the 413", arguments: 0..<3)
    func oversizedBodyThenRead(attempt: Int) throws {
        let echo = try EchoServer()
        let client = try echo.client(timeout: .seconds(10))
        let body = [UInt8](repeating: 65, count: 2 * 1024 * 1024)
        try client.send("POST /admin/rules HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n")
        // The server answers at once and closes its end meanwhile, as it does when the client
        // is slower than the server (a script writing a big body): closing outright would
        // reset the connection under the client's writes.
        _ = usleep(200_000)
        try client.send(body)
        let response = try client.readResponse()
        #expect(response.status == 413)
        #expect(try response.errorBody().code == "body_too_large")
        #expect(try client.waitForClose(timeout: .seconds(8)))
    }

    @Test("Content-Length with Transfer-Encoding is a 400 and close; the bytes after it are never run")
    func contentLengthAndTransferEncoding() throws {
        let echo = try EchoServer()
        let (client, response) = try echo.exchange(
            raw:
                "POST /resolve HTTP/1.1\r\nHost: t\r\nContent-Length: 43\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "0\r\n\r\nGET /admin/rules HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(response.status == 400)
        #expect(response.header("Connection")?.lowercased() == "close")
        #expect(try response.errorBody().code == "bad_request")
        // End of stream, and no second answer before it.
        #expect(try client.waitForClose())
    }

    @Test(
        "a transfer coding other than a single chunked gets 501 at once",
        // `chunked ` with a trailing space or tab is not chunked to libmicrohttpd, which would read
        // the body until the connection closes.
        arguments: ["gzip, chunked", "identity", "chunked, chunked", "chunked ", "chunked\t"])
    func unsupportedTransferCoding(coding: String) throws {
        let echo = try EchoServer()
        let (client, response) = try echo.exchange(raw: "POST /x HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: \(coding)\r\n\r\n")
        #expect(response.status == 501)
        #expect(try response.errorBody().code == "not_implemented")
        #expect(try client.waitForClose())
    }

    @Test("trailing spaces and tabs are not part of a header value; a chunked body in any case is read")
    func headerValuesLoseTrailingWhitespace() throws {
        let echo = try EchoServer()
        let client = try echo.client()
        try client.send(
            "POST /x HTTP/1.1\r\nHost: t\r\nX-Test: ios \t\r\nX-Other: a b\t\r\nTransfer-Encoding: Chunked\r\n\r\n"
                + "2\r\nhi\r\n0\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 200)
        let echoed = try response.echoed()
        #expect(echoed.xTest == "ios")
        #expect(echoed.headers.contains(["X-Other", "a b"]), "\(echoed.headers)")
        #expect(echoed.body == "hi")
    }

    @Test(
        "an absolute-form target is served as its path and query (RFC 9112 §3.2.2)",
        arguments: [
            ("http://t/resolve?url=a", "/resolve", "url=a"), ("HTTPS://t:8443/a/b", "/a/b", nil),
            ("http://t", "/", nil), ("http://t?x=1", "/", "x=1"), ("/http://t/a", "/http://t/a", nil),
        ])
    func absoluteFormTarget(target: String, path: String, query: String?) throws {
        let response = try answer(toRaw: Array("GET \(target) HTTP/1.1\r\nHost: t\r\n\r\n".utf8))
        #expect(response.status == 200)
        let echoed = try response.echoed()
        #expect(echoed.path == path)
        #expect(echoed.query == query)
    }

    // docs/design.md §7 "Limits": the answer is guaranteed when the end of stream is there by the time the
    // request has been read whole, so the request and the half-close go in one segment.
    @Test("a request that arrives with its client's half-close is answered", arguments: ["POST", "DELETE", "GET"])
    func halfClosedClientIsAnswered(method: String) throws {
        let echo = try EchoServer()
        let client = try echo.client(timeout: .seconds(3))
        try client.sendThenFinishSending("\(method) /x HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\nhi")
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(try response.echoed().method == method)
        #expect(try response.echoed().body == "hi")
    }

    @Test("a stream of requests libmicrohttpd refuses logs at most a burst of its messages")
    func libraryMessagesAreLimited() throws {
        let echo = try EchoServer()
        for _ in 0..<60 {
            let client = try echo.client(timeout: .seconds(3))
            try client.send("FOO BAR\r\n\r\n")
            _ = try client.waitForClose()
        }
        let logged = echo.logs.all.filter { $0.message.hasPrefix("libmicrohttpd:") }
        #expect(!logged.isEmpty, "libmicrohttpd logged nothing for malformed requests")
        #expect(logged.count <= 21, "\(logged.count) messages: \(logged.prefix(3).map(\.message))")
    }

    @Test("a NUL byte in the request target is a 400, not a shorter target")
    func nulInTarget() throws {
        let response = try answer(
            toRaw: Array("GET /resolve?url=shop%3A%2F%2Fproduct%2F1".utf8) + [0]
                + Array("garbage HTTP/1.1\r\nHost: t\r\n\r\n".utf8))
        #expect(response.status == 400)
        #expect(try response.errorBody().code == "bad_request")
    }

    @Test("a space or DEL inside the request target is a 400 of ours", arguments: [UInt8(ascii: " "), 0x7F])
    func forbiddenByteInTarget(byte: UInt8) throws {
        let response = try answer(
            toRaw: Array("GET /resolve?url=a".utf8) + [byte] + Array("b HTTP/1.1\r\nHost: t\r\n\r\n".utf8))
        #expect(response.status == 400)
        #expect(try response.errorBody().code == "bad_request")
    }

    @Test(
        "a target whose path or query is not UTF-8 is a 400 of ours",
        arguments: [
            Array("/a".utf8) + [0xFF] + Array("?q=1".utf8),  // in the path
            Array("/a?q=".utf8) + [0xFF],  // in the query
            Array("/a".utf8) + [0xC3] + Array("?q=1".utf8),  // a sequence cut by the `?`
        ])
    func targetNotUTF8(target: [UInt8]) throws {
        let response = try answer(toRaw: Array("GET ".utf8) + target + Array(" HTTP/1.1\r\nHost: t\r\n\r\n".utf8))
        #expect(response.status == 400)
        #expect(try response.errorBody().message == "the request target is not ASCII/UTF-8 text")
    }

    @Test("a target is cut at its first ?, and UTF-8 on either side arrives as sent")
    func targetSplitAtFirstMark() throws {
        let echo = try EchoServer()
        let client = try echo.client(timeout: .seconds(3))
        let echoed = try client.request("GET", "/ä/x?q=€&next=a?b").echoed()
        #expect(echoed.path == "/ä/x")
        #expect(echoed.query == "q=€&next=a?b")
    }

    @Test("a space or DEL in the path, before any ?, is a 400 of ours", arguments: [UInt8(ascii: " "), 0x7F])
    func forbiddenByteInPath(byte: UInt8) throws {
        let response = try answer(
            toRaw: Array("GET /a".utf8) + [byte] + Array("b?q=1 HTTP/1.1\r\nHost: t\r\n\r\n".utf8))
        #expect(response.status == 400)
        #expect(try response.errorBody().code == "bad_request")
    }

    @Test(
        "a head whose framing fields cannot be trusted is a 400 and close; its body never runs as a request",
        arguments: [
            "Content-Length:\r\n 38\r\n",  // obs-fold: libmicrohttpd would see no Content-Length
            "Content-Length: 3\r\n 8\r\n",
            "Transfer-Encoding:\r\n chunked\r\n",
            "X-Note: a\r\n\tb\r\nContent-Length: 38\r\n",  // a fold in any field
            "Content-Length : 38\r\n",  // whitespace before the colon hides the field
            "Content-Length\t: 38\r\n",
            "X(Note): a\r\nContent-Length: 38\r\n",  // not a token
            "Content-Length: 0\u{0}38\r\n",  // libmicrohttpd reads 0
            "Content-Length: 0\u{0}38\r\nX-After: 1\r\n",
            "Transfer-Encoding: chunked\u{0}, gzip\r\n",
        ])
    func untrustedFraming(fields: String) throws {
        let echo = try EchoServer()
        let smuggled = "GET /smuggled HTTP/1.1\r\nHost: t\r\n\r\n"
        let (client, response) = try echo.exchange(raw: "POST /x HTTP/1.1\r\nHost: t\r\n\(fields)\r\n\(smuggled)")
        #expect(response.status == 400)
        #expect(response.header("Connection")?.lowercased() == "close")
        #expect(try response.errorBody().code == "bad_request")
        #expect(try client.waitForClose(), "a second answer came: the body ran as a request")
    }

    @Test("lines ending in a bare LF still frame a body by Content-Length, with fields after it")
    func bareLineFeedsAreNoNulByte() throws {
        let echo = try EchoServer()
        let (_, response) = try echo.exchange(raw: "POST /x HTTP/1.1\nHost: t\nContent-Length: 2\nX-After: 1\n\nhi")
        #expect(response.status == 200)
        #expect(try response.echoed().body == "hi")
    }

    @Test(
        "a body-less request with Expect: 100-continue and a request pipelined after it are both answered",
        arguments: ["GET", "DELETE"])
    func expectContinueThenPipelined(method: String) throws {
        let echo = try EchoServer()
        var (client, response) = try echo.exchange(
            raw: "\(method) /first HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\n\r\n"
                + "GET /second HTTP/1.1\r\nHost: t\r\n\r\n")
        if response.status == 100 { response = try client.readResponse() }
        #expect(response.status == 200)
        #expect(try response.echoed().path == "/first")
        #expect(try response.echoed().method == method)
        let second = try client.readResponse()
        #expect(second.status == 200)
        #expect(try second.echoed().path == "/second")
    }

    @Test("an HTTP/1.0 request with Transfer-Encoding is a 400 and close (RFC 9112 §6.1)")
    func transferEncodingInHTTP10() throws {
        let echo = try EchoServer()
        let (client, response) = try echo.exchange(
            raw:
                "POST /x HTTP/1.0\r\nHost: t\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "2\r\nhi\r\n0\r\n\r\nGET /y HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(response.status == 400)
        #expect(try response.errorBody().code == "bad_request")
        #expect(try client.waitForClose(), "a second answer came after the HTTP/1.0 request")
    }

    @Test("two different Content-Length values are a 400")
    func conflictingContentLengths() throws {
        let echo = try EchoServer()
        let (_, response) = try echo.exchange(raw: "POST /x HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab")
        #expect(response.status == 400)
        #expect(try response.errorBody().code == "bad_request")
    }
}
