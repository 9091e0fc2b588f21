import Foundation
import SwitchboardTestSupport
import Testing

extension IntegrationTests {
    /// `tls` and `admin_tls`: HTTPS on either listener with libmicrohttpd's own TLS, checked by
    /// curl; a renewed certificate served after a reload, a bad one refused with the old one kept
    /// (design.md §2 "Listeners and TLS").
    @Suite("TLS on the listeners")
    struct TLSTests {
        static func server(_ certificates: TestCertificates, settings: String) async throws -> InProcessServer {
            let config = try TestConfig.demo()
            try config.writeSettings(try config.read("switchboard.yaml") + settings)
            return try await InProcessServer(config: config)
        }

        static func tlsSetting(_ key: String, _ paths: (cert: String, key: String)) -> String {
            "\(key): { cert_file: \"\(paths.cert)\", key_file: \"\(paths.key)\" }\n"
        }

        @Test("HTTPS on the public listener: curl trusting the certificate gets answers; a renewal is served after a reload")
        func rotationOnReload() async throws {
            let certificates = try TestCertificates()
            let first = try certificates.make("first")
            let renewed = try certificates.make("renewed")
            try certificates.install("first", as: "live")
            let server = try await Self.server(certificates, settings: Self.tlsSetting("tls", certificates.paths("live")))

            let health = try TestCertificates.curl(port: server.port, "/healthz", trusting: first.cert)
            #expect(health.status == 200, "\(health)")
            let resolved = try TestCertificates.curl(
                port: server.port, "/resolve?url=shopapp%3A%2F%2Fproduct%2F42", trusting: first.cert)
            #expect(resolved.status == 200 && resolved.body.contains("\"routeId\""), "\(resolved)")
            #expect(try TestCertificates.curl(port: server.port, "/healthz", trusting: renewed.cert).status == nil)

            try certificates.install("renewed", as: "live")
            let reload = try TestCertificates.curl(
                port: server.port, "/admin/reload", trusting: first.cert, token: TestToken.admin, method: "POST")
            #expect(reload.status == 200, "\(reload)")

            // New connections get the renewed certificate, and no longer the first.
            let after = try TestCertificates.curl(port: server.port, "/healthz", trusting: renewed.cert)
            #expect(after.status == 200, "\(after)")
            let old = try TestCertificates.curl(port: server.port, "/healthz", trusting: first.cert)
            #expect(old.status == nil, "the first certificate is still served: \(old)")
        }

        @Test("a renewal written over the certificate files is served after the watcher's reload, with no signal or call")
        func renewalFollowedByTheWatcher() async throws {
            let certificates = try TestCertificates()
            _ = try certificates.make("first")
            let renewed = try certificates.make("renewed")
            try certificates.install("first", as: "live")
            let server = try await Self.server(certificates, settings: Self.tlsSetting("tls", certificates.paths("live")))
            try certificates.install("renewed", as: "live")
            let served = try await eventually(timeout: .seconds(15), interval: .milliseconds(200)) {
                (try? TestCertificates.curl(port: server.port, "/healthz", trusting: renewed.cert).status) == 200
            }
            #expect(served, "the renewed certificate was not served: \(server.logs.all.map(\.message).suffix(5))")
        }

        @Test("a reload with a key that is not the certificate's, or a missing file, fails, says why and keeps the served pair")
        func badPairKeepsTheServedOne() async throws {
            let certificates = try TestCertificates()
            let served = try certificates.make("served")
            let other = try certificates.make("other")
            try certificates.install("served", as: "live")
            let live = certificates.paths("live")
            let server = try await Self.server(certificates, settings: Self.tlsSetting("tls", live))
            func reload() throws -> (status: Int?, body: String, failure: String) {
                try TestCertificates.curl(port: server.port, "/admin/reload", trusting: served.cert, token: TestToken.admin, method: "POST")
            }

            // The other certificate's key beside the served certificate: a renewal caught half written.
            try FileManager.default.removeItem(atPath: live.key)
            try FileManager.default.copyItem(atPath: other.key, toPath: live.key)
            var outcome = try reload()
            #expect(outcome.status == 422, "\(outcome)")
            #expect(outcome.body.contains("the private key does not belong to the certificate"), "\(outcome.body)")

            try FileManager.default.removeItem(atPath: live.key)
            outcome = try reload()
            #expect(outcome.status == 422, "\(outcome)")
            #expect(outcome.body.contains("key_file '\(live.key)' does not exist"), "\(outcome.body)")

            try Data("not a certificate".utf8).write(to: URL(fileURLWithPath: live.cert))
            try FileManager.default.copyItem(atPath: served.key, toPath: live.key)
            outcome = try reload()
            #expect(outcome.status == 422, "\(outcome)")
            #expect(outcome.body.contains("is not a PEM certificate chain"), "\(outcome.body)")
            let status = try TestCertificates.curl(port: server.port, "/admin/status", trusting: served.cert, token: TestToken.admin)
            #expect(status.body.contains("is not a PEM certificate chain"), "\(status.body)")

            // Through all of it the first pair was served, and still is.
            #expect(try TestCertificates.curl(port: server.port, "/healthz", trusting: served.cert).status == 200)
            #expect(try TestCertificates.curl(port: server.port, "/healthz", trusting: other.cert).status == nil)
        }

        @Test("HTTPS on both listeners, each with its own certificate; the admin one rotates with the same reload")
        func bothListeners() async throws {
            let certificates = try TestCertificates()
            let publicPair = try certificates.make("public")
            let adminPair = try certificates.make("admin")
            let renewedAdmin = try certificates.make("admin-renewed")
            try certificates.install("admin", as: "admin-live")
            let server = try await Self.server(
                certificates,
                settings: Self.tlsSetting("tls", publicPair) + "admin_listen: \"127.0.0.1:0\"\n"
                    + Self.tlsSetting("admin_tls", certificates.paths("admin-live")))
            let adminPort = try #require(server.adminPort)
            #expect(
                try TestCertificates.curl(port: server.port, "/resolve?url=shopapp%3A%2F%2Fproduct%2F42", trusting: publicPair.cert).status
                    == 200)
            #expect(try TestCertificates.curl(port: server.port, "/metrics", trusting: publicPair.cert).status == 404)
            #expect(try TestCertificates.curl(port: adminPort, "/metrics", trusting: adminPair.cert).status == 200)
            #expect(try TestCertificates.curl(port: adminPort, "/healthz", trusting: publicPair.cert).status == nil)

            try certificates.install("admin-renewed", as: "admin-live")
            let reload = try TestCertificates.curl(
                port: adminPort, "/admin/reload", trusting: adminPair.cert, token: TestToken.admin, method: "POST")
            #expect(reload.status == 200, "\(reload)")
            #expect(
                try TestCertificates.curl(port: adminPort, "/admin/rules", trusting: renewedAdmin.cert, token: TestToken.admin).status
                    == 200)
            #expect(try TestCertificates.curl(port: adminPort, "/healthz", trusting: adminPair.cert).status == nil)
            #expect(try TestCertificates.curl(port: server.port, "/healthz", trusting: publicPair.cert).status == 200)
        }

        @Test("a missing certificate file or a mismatched key stops the start with a clear error")
        func badPairAtStart() async throws {
            let certificates = try TestCertificates()
            let served = try certificates.make("served")
            let other = try certificates.make("other")
            for (paths, expected) in [
                ((cert: served.cert + ".missing", key: served.key), "cert_file '\(served.cert).missing' does not exist"),
                ((cert: served.cert, key: other.key), "the private key does not belong to the certificate"),
            ] {
                await #expect {
                    _ = try await Self.server(certificates, settings: Self.tlsSetting("tls", paths))
                } throws: { error in
                    let text = "\(error)"
                    return text.contains("the TLS certificates cannot be served") && text.contains(expected)
                }
            }
        }
    }
}
