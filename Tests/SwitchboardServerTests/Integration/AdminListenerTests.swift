import Foundation
import Logging
import SwitchboardCore
import SwitchboardTestSupport
import Testing

@testable import SwitchboardServer

extension IntegrationTests {
    /// `admin_listen`: the operator endpoints answer on a listener of their own, and are a 404
    /// on the public one (design.md §2 "Listeners and TLS").
    @Suite("The admin listener")
    struct AdminListenerTests {
        /// The operator endpoints, each with a request that answers 200 where it is served.
        static let operatorPaths = ["/admin/rules", "/admin/status", "/console", "/console/console.js", "/metrics", "/openapi.yaml"]
        /// The endpoints for everyone.
        static let publicPaths = [
            "/resolve?url=shopapp%3A%2F%2Fproduct%2F42", "/healthz", "/livez", "/readyz",
            "/.well-known/apple-app-site-association",
        ]

        static func server(settings: String) async throws -> InProcessServer {
            let config = try TestConfig.demo()
            try config.writeSettings(try config.read("switchboard.yaml") + settings)
            return try await InProcessServer(config: config)
        }

        @Test("with admin_listen, the public port answers 404 for the operator endpoints, token or not; the admin port serves them")
        func operatorEndpointsMove() async throws {
            let server = try await Self.server(settings: "admin_listen: \"127.0.0.1:0\"\n")
            let adminPort = try #require(server.adminPort)
            #expect(adminPort != 0 && adminPort != server.port)
            let publicClient = try server.client()
            let adminClient = try server.adminClient()
            for path in Self.operatorPaths + ["/admin/no-such-thing"] {
                for token in [TestToken.admin, nil] {
                    let response = try publicClient.admin("GET", path, token: token)
                    #expect(response.status == 404, "public \(path) token \(token ?? "none"): \(response.dump)")
                    #expect(response.errorCode == "not_found", "\(path)")
                }
            }
            // A write is refused the same way, before its body or token is looked at.
            #expect(try publicClient.admin("POST", "/admin/reload").status == 404)
            for path in Self.operatorPaths {
                let response = try adminClient.admin("GET", path)
                #expect(response.status == 200, "admin \(path): \(response.dump)")
            }
            #expect(try adminClient.admin("GET", "/admin/rules", token: nil).status == 401)
            #expect(try adminClient.admin("POST", "/admin/reload").status == 200)
            for path in Self.publicPaths {
                #expect(try publicClient.request("GET", path).status == 200, "public \(path)")
                // The admin listener answers every endpoint: the console tries links with /resolve.
                #expect(try adminClient.request("GET", path).status == 200, "admin \(path)")
            }
            // One snapshot and one set of metrics behind both listeners.
            let metrics = String(decoding: try adminClient.request("GET", "/metrics").body, as: UTF8.self)
            #expect((metricValue(metrics, #"switchboard_http_requests_total{endpoint="resolve",status="200"}"#) ?? 0) >= 2, "\(metrics)")
            let listening = server.logs.all.first { $0.message == "switchboard listening" }
            #expect(listening?.metadata["admin_address"]?.description == "127.0.0.1:\(adminPort)")
        }

        @Test("without admin_listen, one listener serves every endpoint")
        func oneListener() async throws {
            let server = try await Self.server(settings: "")
            #expect(server.adminPort == nil)
            let client = try server.client()
            for path in Self.operatorPaths { #expect(try client.admin("GET", path).status == 200, "\(path)") }
            for path in Self.publicPaths { #expect(try client.request("GET", path).status == 200, "\(path)") }
        }

        @Test("without admin_listen, a listener that is not loopback with admin tokens set logs a warning at start")
        func warnsWhenAdminIsExposed() async throws {
            for (listen, token, warns) in [
                ("0.0.0.0:0", TestToken.admin, true), ("127.0.0.1:0", TestToken.admin, false), ("0.0.0.0:0", nil, false),
            ] {
                let config = try TestConfig.demo()
                let server = try await InProcessServer(config: config, token: token, listen: listen)
                let warned = server.logs.all.contains { $0.message.contains("listener that is not loopback") }
                #expect(warned == warns, "listen \(listen), token \(token ?? "none")")
                try await server.stop()
            }
            let config = try TestConfig.demo()
            try config.writeSettings(try config.read("switchboard.yaml") + "admin_listen: \"127.0.0.1:0\"\n")
            let server = try await InProcessServer(config: config, listen: "0.0.0.0:0")
            #expect(!server.logs.all.contains { $0.message.contains("listener that is not loopback") })
        }

        @Test("the admin listener drains with the public one on a graceful shutdown")
        func bothStop() async throws {
            let server = try await Self.server(settings: "admin_listen: \"127.0.0.1:0\"\n")
            let adminPort = try #require(server.adminPort)
            try await server.stop()
            #expect(throws: (any Error).self) { try HTTPTestClient(port: adminPort).request("GET", "/healthz") }
            #expect(throws: (any Error).self) { try HTTPTestClient(port: server.port).request("GET", "/healthz") }
        }

        @Test(
            "bad listener settings are a clear load error",
            arguments: [
                (
                    "listen: \"127.0.0.1:8080\"\nadmin_listen: \"127.0.0.1:8080\"",
                    "admin_listen: 'admin_listen' (127.0.0.1:8080) is the address of 'listen' (127.0.0.1:8080): give the "
                        + "admin listener a port of its own, e.g. 127.0.0.1:9090"
                ),
                (
                    "listen: \"0.0.0.0:8080\"\nadmin_listen: \"127.0.0.1:8080\"",
                    "admin_listen: 'admin_listen' (127.0.0.1:8080) is the address of 'listen' (0.0.0.0:8080): give the "
                        + "admin listener a port of its own, e.g. 127.0.0.1:9090"
                ),
                (
                    "admin_listen: \"localhost\"",
                    "admin_listen: the port is missing (listen address \"localhost\"). Fix: write host:port, e.g. "
                        + "127.0.0.1:8080 (port 0 picks a free port)"
                ),
                (
                    "admin_tls: { cert_file: a.pem, key_file: a.key }",
                    "admin_tls: 'admin_tls' is set but 'admin_listen' is not: set admin_listen (e.g. 127.0.0.1:9090) or "
                        + "remove admin_tls"
                ),
                ("tls: { cert_file: a.pem }", "tls.key_file: 'key_file' is required: TLS needs both cert_file and key_file (PEM files)"),
            ])
        func badSettings(yaml: String, message: String) {
            #expect {
                _ = try ConfigDirectory.decodeYAML(ServerSettings.self, from: yaml + "\n")
            } throws: { error in
                let described = DecodingErrorDescription.describe(error)
                if described != message { Issue.record("\(described)") }
                return described == message
            }
        }

        @Test("a --listen override on the admin listener's address stops the start with a clear error")
        func overrideClash() async throws {
            let config = try TestConfig.demo()
            try config.writeSettings(try config.read("switchboard.yaml") + "admin_listen: \"127.0.0.1:19090\"\n")
            await #expect {
                _ = try await InProcessServer(config: config, listen: "127.0.0.1:19090")
            } throws: { error in
                "\(error)".contains("is the address of 'listen' (127.0.0.1:19090)")
            }
        }
    }
}
