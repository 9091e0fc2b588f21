import Foundation
import SwitchboardCore
import SwitchboardHTTP
import Synchronization
import Testing

@testable import SwitchboardServer

/// The one table of admin writes (``AdminWrite/all``) drives the endpoint table, the preview's
/// lookup and the history's action names.
@Suite("Admin write table")
struct AdminWriteTableTests {
    /// Each write as `METHOD path status action`. The actions are stored in state files and
    /// PostgreSQL, so they never change; a new write is added here too.
    static let declared = [
        "POST /admin/rules 201 rules.add",
        "PUT /admin/rules 200 rules.replace",
        "PUT /admin/rules/{id} 200 rules.update",
        "PATCH /admin/rules/{id} 200 rules.move",
        "DELETE /admin/rules/{id} 204 rules.delete",
        "POST /admin/routes 201 routes.add",
        "PUT /admin/routes/{id} 200 routes.update",
        "DELETE /admin/routes/{id} 204 routes.delete",
        "POST /admin/rollback 200 rollback",
        "PUT /admin/state 200 state.replace",
        "POST /admin/reload 200 -",
    ]

    /// A body each write that takes one accepts, by `METHOD path`.
    static let validBodies = [
        "POST /admin/rules": #"{"id":"r","match":"^a://","target":"shopapp://b"}"#,
        "PUT /admin/rules": #"{"rules":[]}"#,
        "PUT /admin/rules/{id}": #"{"match":"^a://","target":"shopapp://b"}"#,
        "PATCH /admin/rules/{id}": #"{"before":"other"}"#,
        "POST /admin/routes": #"{"id":"r","pattern":"/r","target":{}}"#,
        "PUT /admin/routes/{id}": #"{"pattern":"/r","target":{}}"#,
        "POST /admin/rollback": #"{"version":0}"#,
        "PUT /admin/state": #"{"rules":[],"routes":[]}"#,
    ]

    /// The write's path with `{id}` given as `a%20b` (the id `a b`).
    static func concretePath(_ write: AdminWrite) -> String {
        write.path.replacingOccurrences(of: "{id}", with: "a%20b")
    }

    static func expectedID(_ write: AdminWrite) -> String? {
        write.path.hasSuffix("/{id}") ? "a b" : nil
    }

    static func name(_ write: AdminWrite) -> String { "\(write.method) \(write.path)" }

    @Test("the writes, their statuses and history actions are the pinned ones")
    func declaredWrites() {
        let writes = AdminWrite.all.map { "\(Self.name($0)) \($0.status) \($0.action ?? "-")" }
        #expect(writes == Self.declared)
        #expect(Set(AdminWrite.all.compactMap(\.action)).count == AdminWrite.all.count - 1, "one action per change")
    }

    @Test("every write is reachable through the endpoint table, with its {id}, metrics label and role")
    func reachableThroughEndpointTable() throws {
        let handled = Mutex<[(write: String, pathID: String?)]>([])
        var table = EndpointTable(
            authorization: AdminAuthorization(tokens: [
                AdminToken(name: "ops", secret: "w"), AdminToken(name: "dashboard", secret: "r", role: .read),
            ]))
        AdminWrite.register(into: &table) { write, request in
            handled.withLock { $0.append((Self.name(write), request.pathID)) }
            return .text("done")
        }
        let snapshot = try SnapshotAdminChangeTests.demoSnapshot()
        for write in AdminWrite.all {
            let path = Self.concretePath(write)
            let (label, response) = table.respond(
                to: HTTPRequest(method: write.method, path: path, headers: [("Authorization", "Bearer w")]), snapshot: snapshot)
            #expect(response.status == 200, "\(write.method) \(path)")
            #expect(label == write.metricsLabel)
            let last = handled.withLock { $0.last }
            #expect(last?.write == Self.name(write))
            #expect(last?.pathID == Self.expectedID(write))
            // A token whose role is below the write's is refused before the write runs.
            let refused = table.respond(
                to: HTTPRequest(method: write.method, path: path, headers: [("Authorization", "Bearer r")]), snapshot: snapshot)
            #expect(refused.response.status == (write.role == .write ? 403 : 200), "\(write.method) \(path)")
        }
        #expect(handled.withLock { $0.count } == AdminWrite.all.count)
    }

    @Test("every write is found by the preview's lookup, with its {id}, and listed in its refusals")
    func reachableThroughPreview() throws {
        for write in AdminWrite.all {
            let previewed = try PreviewedWrite(method: write.method, path: Self.concretePath(write))
            #expect(Self.name(previewed.write) == Self.name(write))
            #expect(previewed.pathID == Self.expectedID(write))
            let entries = AdminWrite.listed.split(separator: ", ").flatMap { $0.split(separator: " or ") }
            let methods = entries.filter { $0.hasSuffix(" " + write.path) }.flatMap { $0.prefix { $0 != " " }.split(separator: "|") }
            #expect(methods.contains(Substring(write.method)), "\(write.method) \(write.path) in \(AdminWrite.listed)")
        }
    }

    @Test(
        "the preview refuses what is not an admin write, listing the writes",
        arguments: [
            ("GET", "/admin/rules"), ("POST", "/admin/rules/x"), ("PUT", "/admin/rules/"), ("DELETE", "/admin/rules/a/b"),
            ("POST", "/admin/rules?dry_run=1"), ("POST", "/admin/preview"), ("PATCH", "/admin/routes/x"), ("post", "/admin/rules"),
            ("POST", "admin/rules"), ("DELETE", "/admin/rulesx/y"),
        ])
    func previewRefusals(method: String, path: String) {
        #expect {
            _ = try PreviewedWrite(method: method, path: path)
        } throws: { error in
            guard let error = error as? APIError else { return false }
            return error.status == 400 && error.code == "invalid_body"
                && error.message == "'\(method) \(path)' is not an admin write that can be previewed; preview "
                    + "POST /admin/rules, PUT /admin/rules, PUT|PATCH|DELETE /admin/rules/{id}, POST /admin/routes, "
                    + "PUT|DELETE /admin/routes/{id}, POST /admin/rollback, PUT /admin/state or POST /admin/reload"
        }
    }

    @Test("each change carries its write's action, and takesBody says whether the write reads its body")
    func changesFromRequests() throws {
        let snapshot = try SnapshotAdminChangeTests.demoSnapshot()
        func request(_ write: AdminWrite, body: String) -> APIRequest {
            APIRequest(
                http: HTTPRequest(method: write.method, path: Self.concretePath(write), body: Array(body.utf8)), query: [],
                pathID: Self.expectedID(write), actor: "ops", snapshot: snapshot)
        }
        #expect(Set(Self.validBodies.keys) == Set(AdminWrite.all.filter(\.takesBody).map(Self.name)))
        for write in AdminWrite.all {
            guard write.action != nil else {
                #expect(try write.change(of: request(write, body: "")) == nil)
                continue
            }
            if write.takesBody {
                let change = try write.change(of: request(write, body: Self.validBodies[Self.name(write)] ?? ""))
                #expect(change?.action == write.action)
                #expect {
                    _ = try write.change(of: request(write, body: ""))
                } throws: { error in
                    (error as? APIError)?.message.hasPrefix("the request body is empty") == true
                }
            } else {
                #expect(try write.change(of: request(write, body: "not read")).map(\.action) == write.action)
            }
        }
    }
}
