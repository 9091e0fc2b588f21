import Foundation
import SwitchboardCore
import SwitchboardTestSupport
import Testing
import Yams

extension IntegrationTests {
    /// Keeps `openapi.yaml` true (design.md §1): every documented operation and status is
    /// produced by a request and answered as documented (content type, headers, body schema,
    /// with no undocumented members); every path and method the server answers is documented
    /// (others get a 405 whose `Allow` lists exactly the documented methods).
    @Suite("OpenAPI document matches the server")
    struct OpenAPICoverageTests {
        /// Every path the endpoint table answers (API/SwitchboardAPI.swift).
        static let serverPaths = [
            "/resolve", "/healthz", "/livez", "/readyz", "/metrics", "/openapi.yaml", "/admin/rules", "/admin/rules/{id}",
            "/admin/routes", "/admin/routes/{id}", "/admin/reload", "/admin/status", "/admin/table", "/admin/history",
            "/admin/rollback", "/admin/state", "/admin/preview", "/open", "/qr", "/admin/history/{id}", "/console", "/console/{id}",
            "/.well-known/apple-app-site-association",
            "/.well-known/assetlinks.json", "/admin/analytics", "/admin/analytics/orphans",
        ]

        static let methods = ["GET", "POST", "PUT", "DELETE", "PATCH"]

        typealias Send = @Sendable (HTTPTestClient, TestConfig) throws -> HTTPTestResponse

        /// A request for every documented operation and status, in an order where each one gets
        /// the status it expects (the server's config allows 2 admin rules and 37 routes).
        static let steps: [(operation: String, status: Int, send: Send)] = [
            ("GET /resolve", 200, { c, _ in try c.resolve("shopapp://product/1") }),
            ("GET /resolve", 404, { c, _ in try c.resolve("shopapp://nowhere") }),
            ("GET /resolve", 400, { c, _ in try c.request("GET", "/resolve") }),
            ("GET /resolve", 414, { c, _ in try c.resolve("shopapp://search/" + String(repeating: "a", count: 9000)) }),
            (
                "POST /resolve", 200,
                { c, _ in try c.request("POST", "/resolve", body: Array(#"{"urls":["shopapp://product/1","x"]}"#.utf8)) }
            ),
            ("POST /resolve", 400, { c, _ in try c.request("POST", "/resolve", body: Array(#"{"urls":[]}"#.utf8)) }),
            (
                "POST /resolve", 413,
                { c, _ in
                    let urls = Array(repeating: #""shopapp://product/1""#, count: 101).joined(separator: ",")
                    return try c.request("POST", "/resolve", body: Array(#"{"urls":[\#(urls)]}"#.utf8))
                }
            ),
            ("GET /open", 302, { c, _ in try c.request("GET", "/open?url=" + HTTPTestClient.queryValue("shopapp://nowhere")) }),
            ("GET /open", 404, { c, _ in try c.request("GET", "/open?url=" + HTTPTestClient.queryValue("notaurl")) }),
            (
                "GET /open", 200,
                { c, _ in try c.request("GET", "/open?platform=preview&url=" + HTTPTestClient.queryValue("shopapp://nowhere")) }
            ),
            ("GET /qr", 200, { c, _ in try c.request("GET", "/qr?url=" + HTTPTestClient.queryValue("shopapp://product/1")) }),
            ("GET /qr", 400, { c, _ in try c.request("GET", "/qr?url=notaurl") }),
            (
                "GET /qr", 404,
                { c, config in
                    let settings = try config.read("switchboard.yaml")
                    try config.write(
                        "switchboard.yaml", settings.replacingOccurrences(of: "public_url: \"https://go.shop.example.com\"\n", with: ""))
                    defer { try? config.write("switchboard.yaml", settings) }
                    _ = try c.admin("POST", "/admin/reload")
                    let response = try c.request("GET", "/qr?url=notaurl%3Ax")
                    try config.write("switchboard.yaml", settings)
                    _ = try c.admin("POST", "/admin/reload")
                    return response
                }
            ),
            ("GET /open", 414, { c, _ in try c.request("GET", "/open?url=shopapp://x/" + String(repeating: "a", count: 9000)) }),
            (
                "GET /.well-known/apple-app-site-association", 200,
                { c, _ in
                    try c.request("GET", "/.well-known/apple-app-site-association")
                }
            ),
            ("GET /.well-known/assetlinks.json", 200, { c, _ in try c.request("GET", "/.well-known/assetlinks.json") }),
            ("GET /healthz", 200, { c, _ in try c.request("GET", "/healthz") }),
            ("GET /livez", 200, { c, _ in try c.request("GET", "/livez") }),
            ("OPTIONS /resolve", 204, { c, _ in try preflight(c, "/resolve") }),
            ("OPTIONS /open", 204, { c, _ in try preflight(c, "/open") }),
            (
                "OPTIONS /.well-known/apple-app-site-association", 204,
                { c, _ in try preflight(c, "/.well-known/apple-app-site-association") }
            ),
            ("OPTIONS /.well-known/assetlinks.json", 204, { c, _ in try preflight(c, "/.well-known/assetlinks.json") }),
            ("GET /readyz", 200, { c, _ in try c.request("GET", "/readyz") }),
            ("GET /metrics", 200, { c, _ in try c.request("GET", "/metrics") }),
            ("GET /openapi.yaml", 200, { c, _ in try c.request("GET", "/openapi.yaml") }),

            ("POST /admin/rules", 200, { c, _ in try c.admin("POST", "/admin/rules?dry_run=1", json: rule("cov")) }),
            ("POST /admin/rules", 201, { c, _ in try c.admin("POST", "/admin/rules", json: rule("cov")) }),
            ("POST /admin/rules", 400, { c, _ in try c.admin("POST", "/admin/rules", json: #"{"id":"bad","match":"(","target":"x"}"#) }),
            ("POST /admin/rules", 409, { c, _ in try c.admin("POST", "/admin/rules", json: rule("goods-renamed")) }),
            ("POST /admin/rules", 412, { c, _ in try c.admin("POST", "/admin/rules", json: rule("x"), headers: [("If-Match", #""99""#)]) }),
            ("POST /admin/rules", 413, { c, _ in try oversized(c, "POST", "/admin/rules") }),
            ("POST /admin/rules", 422, { c, _ in try c.admin("POST", "/admin/rules", json: batch("rules", [rule("x1"), rule("x2")])) }),
            ("PUT /admin/rules", 200, { c, _ in try c.admin("PUT", "/admin/rules", json: batch("rules", [rule("cov"), rule("cov2")])) }),
            ("PUT /admin/rules", 400, { c, _ in try c.admin("PUT", "/admin/rules", json: rule("cov")) }),
            ("PUT /admin/rules", 409, { c, _ in try c.admin("PUT", "/admin/rules", json: batch("rules", [rule("legacy-item-page")])) }),
            (
                "PUT /admin/rules", 412,
                { c, _ in try c.admin("PUT", "/admin/rules", json: batch("rules", []), headers: [("If-Match", #""99""#)]) }
            ),
            ("PUT /admin/rules", 413, { c, _ in try oversized(c, "PUT", "/admin/rules") }),
            (
                "PUT /admin/rules", 422,
                { c, _ in try c.admin("PUT", "/admin/rules", json: batch("rules", [rule("y1"), rule("y2"), rule("y3")])) }
            ),
            // The admin rules are `cov` and `cov2` and there is no admin route: a dry run keeps it so.
            (
                "PUT /admin/state", 200,
                { c, _ in try c.admin("PUT", "/admin/state?dry_run=1", json: state([rule("cov"), rule("cov2")], [])) }
            ),
            ("PUT /admin/state", 400, { c, _ in try c.admin("PUT", "/admin/state", json: batch("rules", [])) }),
            ("PUT /admin/state", 409, { c, _ in try c.admin("PUT", "/admin/state", json: state([rule("legacy-item-page")], [])) }),
            (
                "PUT /admin/state", 412,
                { c, _ in try c.admin("PUT", "/admin/state", json: state([], []), headers: [("If-Match", #""99""#)]) }
            ),
            ("PUT /admin/state", 413, { c, _ in try oversized(c, "PUT", "/admin/state") }),
            (
                "PUT /admin/state", 422,
                { c, _ in try c.admin("PUT", "/admin/state", json: state([rule("y1"), rule("y2"), rule("y3")], [])) }
            ),
            ("GET /admin/rules", 200, { c, _ in try c.admin("GET", "/admin/rules") }),
            (
                "PUT /admin/rules/{id}", 200,
                { c, _ in try c.admin("PUT", "/admin/rules/cov", json: #"{"match":"^cov://","target":"shopapp://cart"}"#) }
            ),
            ("PUT /admin/rules/{id}", 400, { c, _ in try c.admin("PUT", "/admin/rules/cov", json: rule("other")) }),
            ("PUT /admin/rules/{id}", 404, { c, _ in try c.admin("PUT", "/admin/rules/none", json: rule("none")) }),
            ("PUT /admin/rules/{id}", 409, { c, _ in try c.admin("PUT", "/admin/rules/goods-renamed", json: rule("goods-renamed")) }),
            (
                "PUT /admin/rules/{id}", 412,
                { c, _ in try c.admin("PUT", "/admin/rules/cov", json: rule("cov"), headers: [("If-Match", #""99""#)]) }
            ),
            ("PUT /admin/rules/{id}", 413, { c, _ in try oversized(c, "PUT", "/admin/rules/cov") }),
            ("PATCH /admin/rules/{id}", 200, { c, _ in try c.admin("PATCH", "/admin/rules/cov", json: #"{"after":"cov2"}"#) }),
            ("PATCH /admin/rules/{id}", 200, { c, _ in try c.admin("PATCH", "/admin/rules/cov", json: #"{"before":"cov2"}"#) }),
            (
                "PATCH /admin/rules/{id}", 400,
                { c, _ in try c.admin("PATCH", "/admin/rules/cov", json: #"{"before":"cov2","after":"cov2"}"#) }
            ),
            ("PATCH /admin/rules/{id}", 404, { c, _ in try c.admin("PATCH", "/admin/rules/cov", json: #"{"before":"none"}"#) }),
            ("PATCH /admin/rules/{id}", 409, { c, _ in try c.admin("PATCH", "/admin/rules/goods-renamed", json: #"{"before":"cov"}"#) }),
            (
                "PATCH /admin/rules/{id}", 412,
                { c, _ in try c.admin("PATCH", "/admin/rules/cov", json: #"{"before":"cov2"}"#, headers: [("If-Match", #""99""#)]) }
            ),
            ("PATCH /admin/rules/{id}", 413, { c, _ in try oversized(c, "PATCH", "/admin/rules/cov") }),
            ("DELETE /admin/rules/{id}", 200, { c, _ in try c.admin("DELETE", "/admin/rules/cov?dry_run=true") }),
            ("DELETE /admin/rules/{id}", 400, { c, _ in try c.admin("DELETE", "/admin/rules/cov?dry_run=maybe") }),
            ("PUT /admin/rules", 200, { c, _ in try c.admin("PUT", "/admin/rules?dry_run=1", json: batch("rules", [])) }),
            ("DELETE /admin/rules/{id}", 204, { c, _ in try c.admin("DELETE", "/admin/rules/cov2") }),
            ("DELETE /admin/rules/{id}", 412, { c, _ in try c.admin("DELETE", "/admin/rules/cov", headers: [("If-Match", #""99""#)]) }),
            ("DELETE /admin/rules/{id}", 204, { c, _ in try c.admin("DELETE", "/admin/rules/cov") }),
            ("DELETE /admin/rules/{id}", 404, { c, _ in try c.admin("DELETE", "/admin/rules/cov") }),
            ("DELETE /admin/rules/{id}", 409, { c, _ in try c.admin("DELETE", "/admin/rules/goods-renamed") }),

            ("POST /admin/routes", 200, { c, _ in try c.admin("POST", "/admin/routes?dry_run=1", json: route("cov")) }),
            ("POST /admin/routes", 201, { c, _ in try c.admin("POST", "/admin/routes", json: route("cov")) }),
            ("POST /admin/routes", 400, { c, _ in try c.admin("POST", "/admin/routes", json: #"{"id":"x","target":{}}"#) }),
            ("POST /admin/routes", 409, { c, _ in try c.admin("POST", "/admin/routes", json: route("product.detail")) }),
            (
                "POST /admin/routes", 412,
                { c, _ in try c.admin("POST", "/admin/routes", json: route("x"), headers: [("If-Match", #""99""#)]) }
            ),
            ("POST /admin/routes", 413, { c, _ in try oversized(c, "POST", "/admin/routes") }),
            ("POST /admin/routes", 422, { c, _ in try c.admin("POST", "/admin/routes", json: route("one-too-many")) }),
            ("GET /admin/routes", 200, { c, _ in try c.admin("GET", "/admin/routes") }),
            (
                "DELETE /admin/routes/{id}", 412,
                { c, _ in try c.admin("DELETE", "/admin/routes/cov", headers: [("If-Match", "not-a-version")]) }
            ),
            ("DELETE /admin/routes/{id}", 200, { c, _ in try c.admin("DELETE", "/admin/routes/cov?dry_run=1") }),
            ("DELETE /admin/routes/{id}", 400, { c, _ in try c.admin("DELETE", "/admin/routes/cov?dry_run=yes") }),
            ("PUT /admin/routes/{id}", 200, { c, _ in try c.admin("PUT", "/admin/routes/cov", json: #"{"pattern":"/cov2","target":{}}"#) }),
            ("PUT /admin/routes/{id}", 400, { c, _ in try c.admin("PUT", "/admin/routes/cov", json: route("other")) }),
            ("PUT /admin/routes/{id}", 404, { c, _ in try c.admin("PUT", "/admin/routes/none", json: route("none")) }),
            ("PUT /admin/routes/{id}", 409, { c, _ in try c.admin("PUT", "/admin/routes/product.detail", json: route("product.detail")) }),
            (
                "PUT /admin/routes/{id}", 412,
                { c, _ in try c.admin("PUT", "/admin/routes/cov", json: route("cov"), headers: [("If-Match", #""99""#)]) }
            ),
            ("PUT /admin/routes/{id}", 413, { c, _ in try oversized(c, "PUT", "/admin/routes/cov") }),
            ("DELETE /admin/routes/{id}", 204, { c, _ in try c.admin("DELETE", "/admin/routes/cov") }),
            ("DELETE /admin/routes/{id}", 404, { c, _ in try c.admin("DELETE", "/admin/routes/cov") }),
            ("DELETE /admin/routes/{id}", 409, { c, _ in try c.admin("DELETE", "/admin/routes/product.detail") }),

            ("GET /admin/history", 200, { c, _ in try c.admin("GET", "/admin/history?limit=5") }),
            ("GET /admin/history", 400, { c, _ in try c.admin("GET", "/admin/history?limit=none") }),
            ("GET /admin/history/{id}", 200, { c, _ in try c.admin("GET", "/admin/history/1") }),
            ("GET /admin/history/{id}", 400, { c, _ in try c.admin("GET", "/admin/history/one") }),
            ("GET /admin/history/{id}", 404, { c, _ in try c.admin("GET", "/admin/history/9999") }),
            ("GET /console", 200, { c, _ in try c.request("GET", "/console") }),
            ("GET /console/{id}", 200, { c, _ in try c.request("GET", "/console/console.js") }),
            ("GET /console/{id}", 200, { c, _ in try c.request("GET", "/console/console.css") }),
            ("GET /console/{id}", 404, { c, _ in try c.request("GET", "/console/none.js") }),
            (
                "GET /console", 404,
                { c, config in
                    let settings = try config.read("switchboard.yaml")
                    try config.write("switchboard.yaml", settings.replacingOccurrences(of: "console: { enabled: true }", with: ""))
                    defer { try? config.write("switchboard.yaml", settings) }
                    _ = try c.admin("POST", "/admin/reload")
                    let response = try c.request("GET", "/console")
                    try config.write("switchboard.yaml", settings)
                    _ = try c.admin("POST", "/admin/reload")
                    return response
                }
            ),
            ("GET /admin/table", 200, { c, _ in try c.admin("GET", "/admin/table?module=product&limit=2") }),
            ("GET /admin/table", 400, { c, _ in try c.admin("GET", "/admin/table?limit=0") }),
            (
                "POST /admin/rollback", 412,
                { c, _ in try c.admin("POST", "/admin/rollback", json: #"{"version":1}"#, headers: [("If-Match", #""99""#)]) }
            ),
            (
                "POST /admin/rollback", 409,
                { c, config in
                    // Version 1 had the admin rule `cov`; once rewrites.yaml has a rule with that id
                    // too, restoring it would clash.
                    let path = config.directory + "/rewrites.yaml"
                    let original = try String(contentsOfFile: path, encoding: .utf8)
                    try config.write("rewrites.yaml", original + "  - { id: cov, match: '^cov-config://', target: 'shopapp://me' }\n")
                    defer { try? config.write("rewrites.yaml", original) }
                    _ = try c.admin("POST", "/admin/reload")
                    return try c.admin("POST", "/admin/rollback", json: #"{"version":1}"#)
                }
            ),
            (
                "POST /admin/rollback", 422,
                { c, config in
                    // The version that added the admin route `cov` no longer fits once the config
                    // has one more route (the server allows 37).
                    try config.write("routes.d/extra.yaml", "module: extra\nroutes: [{ id: extra, pattern: /extra }]\n")
                    defer { try? FileManager.default.removeItem(atPath: config.directory + "/routes.d/extra.yaml") }
                    _ = try c.admin("POST", "/admin/reload")
                    let history = try c.admin("GET", "/admin/history")
                    let entries =
                        (try JSONSerialization.jsonObject(with: Data(history.body)) as? [String: Any])?["history"] as? [[String: Any]] ?? []
                    let version = entries.first { ($0["action"] as? String) == "routes.add" }?["version"] as? Int ?? 0
                    return try c.admin("POST", "/admin/rollback", json: #"{"version":\#(version)}"#)
                }
            ),
            ("POST /admin/reload", 200, { c, _ in try c.admin("POST", "/admin/reload") }),
            ("POST /admin/reload", 400, { c, _ in try c.admin("POST", "/admin/reload?dry_run=1") }),
            ("POST /admin/rollback", 200, { c, _ in try c.admin("POST", "/admin/rollback", json: #"{"version":1}"#) }),
            ("POST /admin/rollback", 404, { c, _ in try c.admin("POST", "/admin/rollback", json: #"{"version":9999}"#) }),
            ("POST /admin/rollback", 400, { c, _ in try c.admin("POST", "/admin/rollback", json: #"{"version":"one"}"#) }),
            ("POST /admin/rollback", 413, { c, _ in try oversized(c, "POST", "/admin/rollback") }),
            ("POST /admin/reload", 200, { c, _ in try c.admin("POST", "/admin/reload") }),
            ("GET /admin/status", 200, { c, _ in try c.admin("GET", "/admin/status") }),
            ("POST /admin/reload", 200, { c, _ in try c.admin("POST", "/admin/reload") }),
            ("POST /admin/preview", 200, { c, _ in try c.admin("POST", "/admin/preview", json: preview("POST", "/admin/reload")) }),
            ("POST /admin/preview", 400, { c, _ in try c.admin("POST", "/admin/preview", json: preview("GET", "/admin/rules")) }),
            ("POST /admin/preview", 404, { c, _ in try c.admin("POST", "/admin/preview", json: preview("DELETE", "/admin/rules/nope")) }),
            (
                "POST /admin/preview", 409,
                { c, _ in try c.admin("POST", "/admin/preview", json: preview("DELETE", "/admin/rules/web-search-to-native")) }
            ),
            (
                "POST /admin/preview", 412,
                { c, _ in
                    try c.admin("POST", "/admin/preview", json: preview("DELETE", "/admin/rules/x"), headers: [("If-Match", #""99""#)])
                }
            ),
            ("POST /admin/preview", 413, { c, _ in try oversized(c, "POST", "/admin/preview") }),
            (
                "POST /admin/reload", 422,
                { c, config in
                    try config.write("routes.d/broken.yaml", "module: broken\nroutes: [{ id: b, pattern: /b, tagret: {} }]\n")
                    return try c.admin("POST", "/admin/reload")
                }
            ),
            ("POST /admin/preview", 422, { c, _ in try c.admin("POST", "/admin/preview", json: preview("POST", "/admin/reload")) }),
            ("GET /admin/status", 200, { c, _ in try c.admin("GET", "/admin/status") }),
            ("GET /admin/analytics", 200, { c, _ in try c.admin("GET", "/admin/analytics?by=route") }),
            ("GET /admin/analytics", 200, { c, _ in try c.admin("GET", "/admin/analytics?by=status&format=csv") }),
            ("GET /admin/analytics", 400, { c, _ in try c.admin("GET", "/admin/analytics?by=device") }),
            ("GET /admin/analytics/orphans", 200, { c, _ in try c.admin("GET", "/admin/analytics/orphans") }),
            (
                "GET /admin/analytics/orphans", 400,
                { c, _ in try c.admin("GET", "/admin/analytics/orphans?from=2001-01-01T00:00:00Z") }
            ),
        ]

        /// Documented statuses the steps do not produce: 401 and 403 have their own test (the
        /// console's 403 is `ConsoleTests`'); a failed fsync (503) cannot be caused from here;
        /// `/readyz`'s 503 is the drain test's (`DrainTests`); the analytics' 404 (turned off, at
        /// start only) is `AnalyticsTests`'.
        static func exercisedElsewhere(_ operation: String, _ status: String) -> Bool {
            status == "503" || (operation.contains(" /admin/") && (status == "401" || status == "403" || status == "429"))
                || (operation.contains(" /console") && status == "403")
                || (operation.contains(" /admin/analytics") && status == "404")
        }

        /// A CORS preflight from an allowed origin.
        static func preflight(_ client: HTTPTestClient, _ path: String) throws -> HTTPTestResponse {
            try client.request(
                "OPTIONS", path, headers: [("Origin", "https://m.shop.example.com"), ("Access-Control-Request-Method", "GET")])
        }

        static func rule(_ id: String) -> String { #"{"id":"\#(id)","match":"^\#(id)://","target":"shopapp://me"}"# }
        static func route(_ id: String) -> String { #"{"id":"\#(id)","pattern":"/\#(id)","target":{}}"# }
        static func preview(_ method: String, _ path: String) -> String { #"{"method":"\#(method)","path":"\#(path)"}"# }
        static func batch(_ key: String, _ items: [String]) -> String { #"{"\#(key)":[\#(items.joined(separator: ","))]}"# }
        static func state(_ rules: [String], _ routes: [String]) -> String {
            #"{"rules":[\#(rules.joined(separator: ","))],"routes":[\#(routes.joined(separator: ","))]}"#
        }

        /// Announces a body over 1 MiB and reads the answer, without sending the body.
        static func oversized(_ client: HTTPTestClient, _ method: String, _ path: String) throws -> HTTPTestResponse {
            try client.send(
                "\(method) \(path) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(TestToken.admin)\r\nContent-Length: 2000000\r\n\r\n")
            return try client.readResponse()
        }

        /// The parsed document.
        struct Document {
            let root: [String: Any]

            init() throws {
                let text = try String(contentsOf: Repository.openAPI, encoding: .utf8)
                root = try #require(try Yams.load(yaml: text) as? [String: Any])
            }

            var paths: [String: [String: Any]] {
                (root["paths"] as? [String: Any] ?? [:]).compactMapValues { $0 as? [String: Any] }
            }

            /// `METHOD path` → the operation.
            var operations: [String: [String: Any]] {
                var result: [String: [String: Any]] = [:]
                for (path, item) in paths {
                    for (method, operation) in item {
                        if let operation = operation as? [String: Any] { result["\(method.uppercased()) \(path)"] = operation }
                    }
                }
                return result
            }

            func methods(of path: String) -> Set<String> {
                Set((paths[path] ?? [:]).keys.map { $0.uppercased() }.filter { OpenAPICoverageTests.methods.contains($0) })
            }

            /// The documented responses, `$ref`s resolved.
            func responses(_ operation: [String: Any]) -> [String: [String: Any]] {
                var result: [String: [String: Any]] = [:]
                for (status, response) in operation["responses"] as? [AnyHashable: Any] ?? [:] {
                    guard var response = response as? [String: Any] else { continue }
                    if let reference = response["$ref"] as? String { response = resolve(reference) ?? [:] }
                    result["\(status)"] = response
                }
                return result
            }

            /// Records an issue for every way `response` differs from the documented `spec`:
            /// content type, headers, and the body against the schema.
            func check(_ response: HTTPTestResponse, against spec: [String: Any], _ operation: String) {
                let where_ = "\(operation) \(response.status)"
                for name in (spec["headers"] as? [String: Any] ?? [:]).keys {
                    #expect(response.header(name) != nil, "\(where_): no \(name) header")
                }
                guard let content = spec["content"] as? [String: Any] else {
                    #expect(response.body.isEmpty, "\(where_): a body that is not documented")
                    return
                }
                let mediaType = response.header("Content-Type")?.split(separator: ";").first.map(String.init) ?? "none"
                guard let media = content[mediaType] as? [String: Any] else {
                    Issue.record("\(where_): \(mediaType) is not among \(content.keys.sorted())")
                    return
                }
                guard mediaType == "application/json", let schema = media["schema"] as? [String: Any] else { return }
                do {
                    let value = try JSONDecoder().decode(JSONValue.self, from: Data(response.body))
                    let problems = SchemaValidator(resolve: resolve).problems(value, schema)
                    #expect(problems.isEmpty, "\(where_): \(problems)\n\(response.text)")
                } catch {
                    Issue.record("\(where_): the body is not JSON: \(error)")
                }
            }

            /// `#/components/...`.
            func resolve(_ reference: String) -> [String: Any]? {
                var node: Any = root
                for part in reference.split(separator: "/").dropFirst() {
                    guard let next = (node as? [String: Any])?[String(part)] else { return nil }
                    node = next
                }
                return node as? [String: Any]
            }
        }

        @Test("the documented paths are exactly the paths the server answers")
        func pathsMatch() throws {
            let document = try Document()
            #expect(Set(document.paths.keys) == Set(Self.serverPaths))
            #expect(Set(document.operations.keys) == Set(Self.steps.map(\.operation)), "an operation without a step, or the reverse")
        }

        @Test("every documented operation and status is answered as documented: status, content type, headers, body schema")
        func documentedResponses() async throws {
            let document = try Document()
            let config = try TestConfig.demo()
            // The demo config has redirect_allow, apps and the console on; its public_url is replaced.
            let demoSettings = try config.read("switchboard.yaml").split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.hasPrefix("public_url:") }.joined(separator: "\n")
            try config.writeSettings(
                demoSettings + "limits: { max_admin_rules: 2, max_routes: 37 }\n"
                    + "cors_allowed_origins: [\"https://m.shop.example.com\"]\n" + "public_url: \"https://go.shop.example.com\"\n")
            let server = try await InProcessServer(config: config)
            let operations = document.operations
            var exercised: Set<String> = []
            for (operation, status, send) in Self.steps {
                let documented = try #require(operations[operation], "\(operation) is not documented")
                let response = try send(server.client(), config)
                #expect(response.status == status, "\(operation): \(response.dump)")
                exercised.insert("\(operation) \(response.status)")
                guard let spec = document.responses(documented)["\(response.status)"] else {
                    Issue.record("\(operation): \(response.status) is not documented")
                    continue
                }
                document.check(response, against: spec, operation)
            }
            for (operation, spec) in operations {
                for status in document.responses(spec).keys where !Self.exercisedElsewhere(operation, status) {
                    #expect(exercised.contains("\(operation) \(status)"), "no step answers \(operation) with \(status)")
                }
            }
        }

        @Test("admin operations answer 401 without a token and 403 while none is configured, as documented")
        func adminRefusalsDocumented() async throws {
            let document = try Document()
            let server = try await InProcessServer(config: .demo())
            let disabled = try await InProcessServer(config: .demo(), token: nil)
            for (operation, spec) in document.operations where spec["security"] != nil {
                let parts = operation.split(separator: " ")
                let path = parts[1].replacingOccurrences(of: "{id}", with: "x")
                let responses = document.responses(spec)
                let unauthorized = try server.client().admin(String(parts[0]), path, token: nil, json: "{}")
                #expect(unauthorized.status == 401)
                let forbidden = try disabled.client().admin(String(parts[0]), path, token: TestToken.admin, json: "{}")
                #expect(forbidden.status == 403)
                for response in [unauthorized, forbidden] {
                    if let documented = responses["\(response.status)"] {
                        document.check(response, against: documented, operation)
                    } else {
                        Issue.record("\(operation): \(response.status) is not documented")
                    }
                }
            }
        }

        @Test("a malformed query string is a 400 on every documented operation, and changes nothing")
        func malformedQueryEverywhere() async throws {
            let document = try Document()
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            let before = try client.admin("GET", "/admin/status").json["version"] as? Int
            // A preflight is the browser's question, answered before any query is read.
            for operation in document.operations.keys.sorted() where !operation.hasPrefix("OPTIONS ") {
                let parts = operation.split(separator: " ")
                let method = String(parts[0])
                let path = parts[1].replacingOccurrences(of: "{id}", with: "x")
                let json = method == "GET" || method == "DELETE" ? nil : #"{"version": 0}"#
                let response = try client.admin(method, path + "?a=%ZZ", json: json)
                #expect(response.status == 400, "\(operation): \(response.dump)")
                let code = response.errorCode
                #expect(code == "invalid_query" || (path == "/resolve" && code == "invalid_url"), "\(operation): \(code ?? "")")
            }
            #expect(try client.admin("GET", "/admin/status").json["version"] as? Int == before)
        }

        @Test("a method the document does not list is a 405 whose Allow lists the documented methods")
        func undocumentedMethodsAreRefused() async throws {
            let document = try Document()
            let server = try await InProcessServer(config: .demo())
            let client = try server.client()
            for path in Self.serverPaths {
                let documented = document.methods(of: path)
                let concrete = path.replacingOccurrences(of: "{id}", with: "x")
                for method in Self.methods where !documented.contains(method) {
                    let response = try client.admin(method, concrete, json: method == "GET" || method == "DELETE" ? nil : "{}")
                    #expect(response.status == 405, "\(method) \(path): \(response.dump)")
                    let allowed = Set((response.header("Allow") ?? "").split(separator: ",").map { $0.trimmingSpaces() })
                    #expect(allowed.subtracting(["HEAD"]) == documented, "\(method) \(path): Allow \(allowed)")
                }
            }
            // A path the document does not list is a 404.
            for path in ["/admin/other", "/admin/rules/a/b", "/resolve2", "/metrics/x"] {
                #expect(try client.admin("GET", path).status == 404, "\(path)")
            }
        }
    }
}
