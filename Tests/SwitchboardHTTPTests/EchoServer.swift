import Foundation
import Logging
import SwitchboardHTTP
import SwitchboardTestSupport
import Synchronization

/// The JSON the echo handler answers with.
struct EchoedRequest: Codable {
    var method: String
    var path: String
    var query: String?
    var headers: [[String]]
    var body: String
    var remoteAddress: String?
    /// `request.header("x-test")`: shows the case-insensitive lookup.
    var xTest: String?
}

/// A server on 127.0.0.1, port 0, whose handler echoes the request as JSON.
///
/// Every method but `GET` and `HEAD` runs off the worker threads, on the server's own
/// ``executor``, as Switchboard's writes do. `GET /slow` waits for `slowDelay`, or until
/// ``releaseSlowRequests()``, before echoing (for shutdown tests); `/bad-header` returns a
/// response with a header value containing CR LF; `/request-id` puts the request's `X-Test`
/// into the response's request-id slot, or a value containing CR LF with `?bad`.
final class EchoServer: Sendable {
    let server: HTTPServer
    let executor: BlockingExecutor
    let logs: CollectingLogHandler.Store
    var port: Int { server.boundPort }

    init(configure: (inout HTTPServerConfiguration) -> Void = { _ in }, slowDelay: Duration = .milliseconds(800))
        throws
    {
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
        configure(&configuration)
        let (logger, logs) = CollectingLogHandler.logger()
        self.logs = logs
        let box = SlowCounter()
        let executor = BlockingExecutor(name: "echo.blocking", threads: 2, queueLimit: 16)
        self.executor = executor
        server = try HTTPServer(
            configuration: configuration, logger: logger, refusalResponder: EchoServer.refusal,
            offWorker: OffWorkerPolicy(executor: executor) { $0.method != "GET" && $0.method != "HEAD" }
        ) { request, _ in
            EchoServer.respond(to: request, slowDelay: slowDelay, counter: box)
        }
        slowCounter = box
        try server.start()
    }

    private let slowCounter: SlowCounter

    /// Waits (blocking the thread) until a `/slow` request has entered the handler, or
    /// `timeout` has passed. Blocking, not `Task.sleep`: a delayed task resumes only when the
    /// cooperative pool has a free thread, which CPU-bound suites can hold for seconds.
    func waitForSlowRequest(timeout: Duration = .seconds(5)) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while slowRequestsStarted == 0, clock.now < deadline {
            _ = usleep(2_000)
        }
    }

    /// `/slow` requests that have entered the handler.
    var slowRequestsStarted: Int { slowCounter.value.load(ordering: .acquiring) }

    /// Lets every `/slow` request waiting in the handler, and every later one, answer at once.
    func releaseSlowRequests() {
        slowCounter.released.store(true, ordering: .releasing)
    }

    /// Waits (blocking the thread) until the server has logged `message`, or `timeout` has
    /// passed; `true` when it has.
    func waitForLog(_ message: String, timeout: Duration = .seconds(30)) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            if logs.all.contains(where: { $0.message == message }) { return true }
            _ = usleep(2_000)
        }
        return false
    }

    deinit {
        server.stopNow()
    }

    /// Connects a new client.
    func client(timeout: Duration = .seconds(10)) throws -> HTTPTestClient {
        try HTTPTestClient(port: port, timeout: timeout)
    }

    /// Sends `raw` (a request no well-behaved client would write) on a new connection with a
    /// 3 s timeout, and reads the first answer. The connection stays open for what the test
    /// checks next: a second answer, or its close.
    func exchange(raw: [UInt8]) throws -> (client: HTTPTestClient, response: HTTPTestResponse) {
        let client = try client(timeout: .seconds(3))
        try client.send(raw)
        return (client, try client.readResponse())
    }

    /// ``exchange(raw:)`` with the request's text as UTF-8.
    func exchange(raw: String) throws -> (client: HTTPTestClient, response: HTTPTestResponse) {
        try exchange(raw: Array(raw.utf8))
    }

    final class SlowCounter: Sendable {
        let value = Atomic<Int>(0)
        let released = Atomic<Bool>(false)
    }

    static func respond(to request: HTTPRequest, slowDelay: Duration, counter: SlowCounter) -> HTTPResponse {
        if request.path == "/slow" {
            counter.value.add(1, ordering: .releasing)
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: slowDelay)
            while clock.now < deadline, !counter.released.load(ordering: .acquiring) {
                _ = usleep(2_000)
            }
        }
        if request.path == "/bad-header" {
            return HTTPResponse(status: 200, headers: [("X-Evil", "a\r\nSet-Cookie: x=1")], body: [])
        }
        if request.path == "/request-id" {
            var response = HTTPResponse.json(#"{}"#)
            response.requestID = request.query == "bad" ? "a\r\nSet-Cookie: x=1" : request.header("x-test")
            return response
        }
        let echoed = EchoedRequest(
            method: request.method, path: request.path, query: request.query,
            headers: request.headers.map { [$0.name, $0.value] }, body: String(decoding: request.body, as: UTF8.self),
            remoteAddress: request.remoteAddress, xTest: request.header("x-test"))
        do {
            return .json(Array(try JSONEncoder().encode(echoed)))
        } catch {
            return refusal(HTTPRefusal(status: 500, code: "encoding_failed", message: "\(error)"))
        }
    }

    /// The HTTP layer's refusals as `{"error": {"code": …, "message": …}}`, as the application
    /// renders them.
    @Sendable static func refusal(_ refusal: HTTPRefusal) -> HTTPResponse {
        struct Envelope: Encodable {
            struct Inner: Encodable {
                var code: String
                var message: String
            }
            var error: Inner
        }
        let body = (try? JSONEncoder().encode(Envelope(error: .init(code: refusal.code, message: refusal.message)))) ?? Data()
        return .json(status: refusal.status, Array(body))
    }
}

extension HTTPTestResponse {
    /// The body decoded as the echo handler's JSON.
    func echoed() throws -> EchoedRequest {
        try JSONDecoder().decode(EchoedRequest.self, from: Data(body))
    }

    /// The body decoded as `{"error": {"code": …, "message": …}}`.
    func errorBody() throws -> (code: String, message: String) {
        struct Envelope: Decodable {
            struct Inner: Decodable {
                var code: String
                var message: String
            }
            var error: Inner
        }
        let envelope = try JSONDecoder().decode(Envelope.self, from: Data(body))
        return (envelope.error.code, envelope.error.message)
    }
}
