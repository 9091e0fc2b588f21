import Foundation
import SwitchboardCore
import SwitchboardHTTP
import Synchronization
import Testing

@testable import SwitchboardServer

/// The one endpoint table: 404, 405 with `Allow`, `HEAD`, `{id}`, admin tokens first, one
/// query parse, one rendering of errors.
@Suite("Endpoint table")
struct EndpointTableTests {
    /// What the endpoints of the test table saw.
    final class Seen: Sendable {
        let requests = Mutex<[APIRequest]>([])
    }

    static func table(_ seen: Seen, tokens: [AdminToken] = [AdminToken(name: "ops", secret: "s")]) -> EndpointTable {
        var table = EndpointTable(authorization: AdminAuthorization(tokens: tokens))
        let record: @Sendable (APIRequest) -> HTTPResponse = { request in
            seen.requests.withLock { $0.append(request) }
            return .text("ok")
        }
        table.add("GET", "/things", Endpoint("things", handle: record))
        table.add("POST", "/things", Endpoint("things_add", handle: record))
        table.add("DELETE", "/things/{id}", Endpoint("thing_delete", handle: record))
        table.add("GET", "/only-url", Endpoint("only_url", malformedQueryCode: "invalid_url", handle: record))
        table.add("GET", "/admin/things", Endpoint("admin", access: .admin(.read), handle: record))
        table.add("GET", "/fails", Endpoint("fails") { _ throws(APIError) in throw APIError(status: 409, code: "taken", message: "no") })
        table.add(
            "GET", "/written",
            Endpoint("written") { (_: APIRequest, body: inout [UInt8]) throws(APIError) -> HTTPResponse in
                body.append(contentsOf: #"{"written":true}"#.utf8)
                return .json(body)
            })
        return table
    }

    static func request(_ method: String, _ path: String, query: String? = nil, token: String? = nil) -> HTTPRequest {
        HTTPRequest(
            method: method, path: path, query: query, headers: token.map { [("Authorization", "Bearer \($0)")] } ?? [])
    }

    static func errorCode(_ response: HTTPResponse) -> String? {
        let text = String(decoding: response.body, as: UTF8.self)
        guard let range = text.range(of: #""code":""#) else { return nil }
        return String(text[range.upperBound...].prefix { $0 != "\"" })
    }

    @Test("an unknown path is a 404 not_found in the error shape")
    func unknownPath() {
        let table = Self.table(Seen())
        for path in ["/nothing", "/things/a/b", "/things/", "/thingsx"] {
            let (name, response) = table.respond(to: Self.request("GET", path))
            #expect(response.status == 404, "\(path)")
            #expect(Self.errorCode(response) == "not_found")
            #expect(response.header("Content-Type") == "application/json; charset=utf-8")
            #expect(name == "not_found")
        }
    }

    @Test("a method a path does not take is a 405 whose Allow lists the others, HEAD beside GET")
    func methodNotAllowed() {
        let table = Self.table(Seen())
        let (name, response) = table.respond(to: Self.request("PUT", "/things"))
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET, HEAD, POST")
        #expect(Self.errorCode(response) == "method_not_allowed")
        #expect(name == "things")
        let item = table.respond(to: Self.request("GET", "/things/7")).response
        #expect(item.status == 405)
        #expect(item.header("Allow") == "DELETE")
    }

    @Test("HEAD is answered by the GET endpoint; {id} is percent-decoded")
    func headAndIdentifiers() {
        let seen = Seen()
        let table = Self.table(seen)
        #expect(table.respond(to: Self.request("HEAD", "/things")).response.status == 200)
        #expect(table.respond(to: Self.request("DELETE", "/things/a%20b%2Fc")).response.status == 200)
        let requests = seen.requests.withLock { $0 }
        #expect(requests.map(\.http.method) == ["HEAD", "DELETE"])
        #expect(requests.last?.pathID == "a b/c")
    }

    @Test("admin paths ask for a token before saying anything, unknown paths and methods included")
    func adminFirst() {
        let table = Self.table(Seen())
        for (method, path) in [("GET", "/admin/things"), ("GET", "/admin/unknown"), ("PUT", "/admin/things")] {
            let response = table.respond(to: Self.request(method, path)).response
            #expect(response.status == 401, "\(method) \(path)")
            #expect(response.header("WWW-Authenticate") != nil)
        }
        #expect(table.respond(to: Self.request("GET", "/admin/unknown", token: "s")).response.status == 404)
        #expect(table.respond(to: Self.request("PUT", "/admin/things", token: "s")).response.status == 405)
        let disabled = EndpointTable(authorization: AdminAuthorization(tokens: []))
        #expect(disabled.respond(to: Self.request("GET", "/admin/things", token: "s")).response.status == 403)
    }

    @Test("the endpoint gets the token's name, the parsed query and its values")
    func requestParts() throws {
        let seen = Seen()
        let table = Self.table(seen)
        _ = table.respond(to: Self.request("GET", "/admin/things", query: "a=1&b=x+y&a=2", token: "s"))
        let request = try #require(seen.requests.withLock { $0.first })
        #expect(request.actor == "ops")
        #expect(request.query.map(\.name) == ["a", "b", "a"])
        #expect(try request.queryValue("b") == "x y")
        // A parameter given twice has no one value to give.
        #expect(throws: APIError.self) { try request.queryValue("a") }
    }

    @Test("a malformed query is a 400 on every endpoint, with the endpoint's code, and reaches no endpoint")
    func malformedQuery() {
        let seen = Seen()
        let table = Self.table(seen)
        for (method, path, code) in [
            ("GET", "/things", "invalid_query"), ("POST", "/things", "invalid_query"), ("DELETE", "/things/1", "invalid_query"),
            ("GET", "/only-url", "invalid_url"), ("GET", "/admin/things", "invalid_query"),
        ] {
            let response = table.respond(to: Self.request(method, path, query: "x=%ZZ", token: "s")).response
            #expect(response.status == 400, "\(method) \(path)")
            #expect(Self.errorCode(response) == code, "\(method) \(path)")
        }
        #expect(seen.requests.withLock { $0.isEmpty })
    }

    @Test("a thrown APIError is rendered with its status and code; an endpoint may answer with the lent buffer")
    func errorsAndBuffer() {
        let table = Self.table(Seen())
        let failed = table.respond(to: Self.request("GET", "/fails"))
        #expect(failed.response.status == 409)
        #expect(Self.errorCode(failed.response) == "taken")
        #expect(failed.endpoint == "fails")
        var body: [UInt8] = []
        let written = table.respond(to: Self.request("GET", "/written"), snapshot: EndpointTable.demoSnapshot, body: &body)
        #expect(String(decoding: written.response.body, as: UTF8.self) == #"{"written":true}"#)
        #expect(body == written.response.body)
    }

    @Test("the query reaches the endpoint unread, and is read on demand")
    func lazyQuery() throws {
        let seen = Seen()
        let table = Self.table(seen)
        _ = table.respond(to: Self.request("GET", "/things", query: "b=x+y&a=%2F&&c&a=2&u%72l=1"))
        let request = try #require(seen.requests.withLock { $0.first })
        #expect(request.query.raw == "b=x+y&a=%2F&&c&a=2&u%72l=1")
        #expect(request.query.first(named: "a") == "/")
        #expect(request.query.values(named: "a") == ["/", "2"])
        #expect(request.query.first(named: "c") == "")
        #expect(request.query.first(named: "url") == "1")
        #expect(request.query.first(named: "d") == nil)
        #expect(request.query.map(\.name) == ["b", "a", "c", "a", "url"])
    }
}

extension EndpointTable {
    /// The demo config's snapshot, which the test table's endpoints never look at.
    static let demoSnapshot: Snapshot = {
        do {
            return try SnapshotAdminChangeTests.demoSnapshot()
        } catch {
            fatalError("the demo config does not load: \(error)")
        }
    }()

    /// The table's answer to `request` against the demo snapshot.
    fileprivate func respond(to request: HTTPRequest) -> (endpoint: String, response: HTTPResponse) {
        respond(to: request, snapshot: Self.demoSnapshot)
    }
}
