import Foundation
import SwitchboardTestSupport
import Testing

extension IntegrationTests {
    /// Every answer carries `X-Request-Id`; a W3C `traceparent`'s trace id goes into the request's
    /// access log line, whose fields are metadata.
    @Suite("Request ids and traces over loopback")
    struct RequestTraceTests {
        static func server() async throws -> InProcessServer {
            let config = try TestConfig.demo()
            try config.writeSettings(try config.read("switchboard.yaml") + "access_log: true\n")
            return try await InProcessServer(config: config)
        }

        @Test("every answer carries X-Request-Id: the client's when sane, else a new one")
        func requestIDs() async throws {
            let server = try await Self.server()
            let client = try server.client()
            var made: Set<String> = []
            for (method, path, token) in [
                ("GET", "/resolve?url=shopapp%3A%2F%2Fproduct%2F42", nil), ("GET", "/nowhere", nil), ("GET", "/healthz", nil),
                ("GET", "/admin/status", "wrong"), ("GET", "/admin/status", TestToken.admin), ("DELETE", "/resolve", nil),
            ] as [(String, String, String?)] {
                let response = try client.admin(method, path, token: token)
                let id = try #require(response.header("X-Request-Id"), "\(method) \(path): \(response.dump)")
                #expect(id.utf8.count == 15 && id.allSatisfy(\.isHexDigit), "\(id)")
                made.insert(id)
            }
            #expect(made.count == 6)
            let sane = "req-42:abc/DEF_=.~" + String(repeating: "x", count: 110)
            #expect(try client.request("GET", "/healthz", headers: [("X-Request-Id", sane)]).header("X-Request-Id") == sane)
            for insane in [String(repeating: "x", count: 129), "a\"b", "a;b", "a,b", "a\\b", "caf\u{e9}"] {
                let answered = try client.request("GET", "/healthz", headers: [("X-Request-Id", insane)]).header("X-Request-Id")
                #expect(answered != insane && answered?.utf8.count == 15, "\(insane)")
            }
        }

        @Test("the access log line has the fields as metadata, with the request id and the traceparent's trace id")
        func structuredAccessLog() async throws {
            let server = try await Self.server()
            let client = try server.client()
            let traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
            let traced = try client.request(
                "GET", "/resolve?url=shopapp%3A%2F%2Fproduct%2F42&platform=ios",
                headers: [("traceparent", traceparent), ("X-Request-Id", "client-id-1")])
            #expect(traced.status == 200)
            _ = try client.request(
                "GET", "/nowhere", headers: [("traceparent", "00-" + String(repeating: "0", count: 32) + "-00f067aa0ba902b7-01")])
            let lines = server.logs.all.filter { $0.message == "request" }
            #expect(lines.count == 2, "\(lines)")
            let fields = lines.first?.metadata.mapValues(\.description) ?? [:]
            #expect(fields["http.request.method"] == "GET")
            #expect(fields["url.path"] == "/resolve")
            #expect(fields["url.query"] == "url=*&platform=*")
            #expect(fields["http.response.status_code"] == "200")
            #expect(fields["endpoint"] == "resolve")
            #expect(fields["request_id"] == "client-id-1")
            #expect(fields["trace_id"] == "4bf92f3577b34da6a3ce929d0e0e4736")
            #expect(fields["client.address"] == "127.0.0.1")
            #expect(fields["duration_us"].flatMap { Int($0) } != nil, "\(fields)")
            // An all-zero trace id is invalid: no trace id, and the rest as usual.
            let untraced = lines.last?.metadata.mapValues(\.description) ?? [:]
            #expect(untraced["trace_id"] == nil && untraced["http.response.status_code"] == "404", "\(untraced)")
        }
    }
}
