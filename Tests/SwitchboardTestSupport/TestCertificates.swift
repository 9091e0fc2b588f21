import Foundation

/// Throwaway self-signed certificates for `127.0.0.1`, made with `openssl` in a temporary
/// directory, and `curl` as the HTTPS client that checks them (`--cacert`): each certificate is
/// its own authority, so a request trusting one succeeds only when the server presents it.
package final class TestCertificates: Sendable {
    package let directory: TemporaryDirectory

    package init() throws {
        directory = try TemporaryDirectory(prefix: "switchboard-tls")
    }

    /// The paths of certificate `name`'s PEM files.
    package func paths(_ name: String) -> (cert: String, key: String) {
        (directory.path + "/\(name).crt", directory.path + "/\(name).key")
    }

    /// Makes certificate `name` (a P-256 key, valid for a day, for 127.0.0.1 and localhost).
    @discardableResult
    package func make(_ name: String) throws -> (cert: String, key: String) {
        let (cert, key) = paths(name)
        let result = try Subprocess.run(
            try Self.tool("openssl"),
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
                "-subj", "/CN=switchboard-test-\(name)", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
                "-keyout", key, "-out", cert,
            ])
        guard result.status == 0 else { throw TestSetupError("openssl req failed: \(result.output)") }
        return (cert, key)
    }

    /// Copies certificate `name`'s files over `target`'s, as a renewal (cert-manager, certbot) does.
    package func install(_ name: String, as target: String) throws {
        for (source, destination) in [(paths(name).cert, paths(target).cert), (paths(name).key, paths(target).key)] {
            let data = try Data(contentsOf: URL(fileURLWithPath: source))
            try data.write(to: URL(fileURLWithPath: destination), options: .atomic)
        }
    }

    /// `curl --cacert <name's certificate> https://127.0.0.1:<port><path>`: the status, or
    /// `nil` when the request failed (curl's exit status and message in `failure`).
    package static func curl(port: Int, _ path: String, trusting certificate: String, token: String? = nil, method: String = "GET")
        throws -> (status: Int?, body: String, failure: String)
    {
        var arguments = [
            "--silent", "--show-error", "--max-time", "10", "--cacert", certificate, "-X", method,
            "--write-out", "\n%{http_code}",
        ]
        if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
        arguments.append("https://127.0.0.1:\(port)\(path)")
        let result = try Subprocess.run(try tool("curl"), arguments)
        guard result.status == 0 else { return (nil, "", "curl exit \(result.status): \(result.output)") }
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? ""), lines.dropLast().joined(separator: "\n"), "")
    }

    /// The path of a program on `PATH`.
    package static func tool(_ name: String) throws -> String {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let found = directories.map({ "\($0)/\(name)" }).first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw TestSetupError("\(name) is not installed: run scripts/install-test-deps.sh")
        }
        return found
    }
}
