import Foundation
import SwitchboardTestSupport
import Testing

extension IntegrationTests {
    /// `/console`: the admin console's page and files, over loopback.
    @Suite("The admin console's files over loopback")
    struct ConsoleTests {
        static let enabled = "console: { enabled: true }\n"

        /// The demo's settings without its `console` line, for the tests to set it their way.
        static func demoSettings(_ config: TestConfig) throws -> String {
            try config.read("switchboard.yaml").replacingOccurrences(of: enabled, with: "")
        }

        static func server(settings: String = enabled, token: String? = TestToken.admin) async throws -> InProcessServer {
            let config = try TestConfig.demo()
            try config.writeSettings(try demoSettings(config) + settings)
            return try await InProcessServer(config: config, token: token)
        }

        @Test("off by default: /console and its files are a 404 JSON error")
        func offByDefault() async throws {
            let server = try await Self.server(settings: "")
            let client = try server.client()
            for path in ["/console", "/console/console.js"] {
                let response = try client.request("GET", path)
                #expect(response.status == 404, "\(response.dump)")
                #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
                #expect(response.errorCode == "not_found")
                #expect(response.errorMessage.contains("console"))
            }
        }

        @Test("a reload turns the console on and off")
        func reloadTurnsItOnAndOff() async throws {
            let server = try await Self.server(settings: "")
            let client = try server.client()
            #expect(try client.request("GET", "/console").status == 404)
            let settings = try server.config.read("switchboard.yaml")
            try server.config.write("switchboard.yaml", settings + Self.enabled)
            #expect(try client.admin("POST", "/admin/reload").status == 200)
            #expect(try client.request("GET", "/console").status == 200)
            try server.config.write("switchboard.yaml", settings)
            #expect(try client.admin("POST", "/admin/reload").status == 200)
            #expect(try client.request("GET", "/console").status == 404)
        }

        @Test("the page and each file with its content type, a strict CSP, nosniff and no framing")
        func servesFilesWithSecurityHeaders() async throws {
            let server = try await Self.server()
            let client = try server.client()
            let expected = [
                ("/console", "text/html"), ("/console/console.css", "text/css"), ("/console/console.js", "text/javascript"),
                ("/console/routes.js", "text/javascript"), ("/console/preview.js", "text/javascript"),
            ]
            for (path, type) in expected {
                let response = try client.request("GET", path)
                #expect(response.status == 200, "\(path): \(response.dump)")
                #expect(response.header("Content-Type") == "\(type); charset=utf-8", "\(path)")
                let policy = response.header("Content-Security-Policy") ?? ""
                for directive in [
                    "default-src 'self'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'", "object-src 'none'",
                ] {
                    #expect(policy.contains(directive), "\(path): \(policy)")
                }
                #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"), "\(policy)")
                #expect(response.header("X-Content-Type-Options") == "nosniff")
                #expect(response.header("X-Frame-Options") == "DENY")
                #expect(!response.body.isEmpty)
            }
            let page = try client.request("GET", "/console").text
            #expect(page.contains(#"<script type="module" src="/console/console.js">"#))
            // No inline script or style: the policy would block it, so the page must not need it.
            #expect(!page.contains("<style") && !page.contains(" style="))
            #expect(page.range(of: #"\son[a-z]+="#, options: .regularExpression) == nil, "an inline event handler")
            #expect(page.components(separatedBy: "<script").count == 2, "one script, loaded from its file")
            #expect(try client.request("HEAD", "/console").status == 200)
        }

        @Test("every file the scripts import is served")
        func importsResolve() async throws {
            let server = try await Self.server()
            let client = try server.client()
            for name in ["console.js", "routes.js", "rules.js", "preview.js", "try.js", "history.js", "status.js", "api.js", "dom.js"] {
                let script = try client.request("GET", "/console/" + name).text
                for line in script.split(separator: "\n") where line.hasPrefix("import ") {
                    guard let from = line.range(of: "from './") else { continue }
                    let file = line[from.upperBound...].prefix { $0 != "'" }
                    #expect(try client.request("GET", "/console/\(file)").status == 200, "\(name) imports \(file)")
                }
            }
        }

        @Test("an unknown file is a 404; the files need no token")
        func unknownFile() async throws {
            let server = try await Self.server()
            let client = try server.client()
            for name in ["nothing.js", "index.html", "..%2Fopenapi.yaml", "%2e%2e"] {
                let response = try client.request("GET", "/console/" + name)
                #expect(response.status == 404, "\(name): \(response.dump)")
                #expect(response.errorCode == "not_found")
            }
            #expect(try client.request("GET", "/console/console.js").status == 200)
        }

        @Test("403 while no admin token is configured, like the admin API")
        func forbiddenWithoutToken() async throws {
            let server = try await Self.server(token: nil)
            let client = try server.client()
            for path in ["/console", "/console/console.css"] {
                let response = try client.admin("GET", path, token: nil)
                #expect(response.status == 403, "\(response.dump)")
                #expect(response.errorCode == "admin_disabled")
            }
        }

        @Test("console settings are decoded strictly")
        func strictSettings() async throws {
            let config = try TestConfig.demo()
            try config.writeSettings(try Self.demoSettings(config) + "console: { enabled: true, theme: dark }\n")
            await #expect(throws: (any Error).self) { try await InProcessServer(config: config) }
        }
    }
}
