import Foundation
import SwitchboardCore
import SwitchboardHTTP
import SwitchboardTestSupport
import Testing

@testable import SwitchboardServer

/// The whole API (``SwitchboardApplication``, its services not run: no watcher, no reloads)
/// on 127.0.0.1, port 0, serving a config written to a temporary directory; `data_dir` is
/// inside that directory.
final class AppsTestServer {
    let directory: TemporaryDirectory
    let application: SwitchboardApplication
    var port: Int { application.server.boundPort }

    /// - Parameters:
    ///   - settings: `switchboard.yaml` without `data_dir` (added here).
    ///   - routes: `routes.d/<name>.yaml` files.
    ///   - rewrites: `rewrites.yaml`, when given.
    ///   - clock: the service's clock (seconds since the epoch).
    init(
        settings: String, routes: [String: String], rewrites: String? = nil,
        clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) throws {
        let directory = try TemporaryDirectory()
        try directory.write("switchboard.yaml", settings + "\ndata_dir: \(directory.path)/data\n")
        for (name, text) in routes { try directory.write("routes.d/\(name).yaml", text) }
        if let rewrites { try directory.write("rewrites.yaml", rewrites) }
        let (logger, _) = CollectingLogHandler.logger()
        application = try SwitchboardApplication(
            configDirectory: directory.path, listen: "127.0.0.1:0", environment: { [:] }, signals: nil, logger: logger,
            clock: clock)
        self.directory = directory
    }

    deinit {
        application.server.stopNow()
    }

    /// Sends one request on a fresh connection.
    func request(
        _ method: String = "GET", _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) throws -> HTTPTestResponse {
        let client = try HTTPTestClient(port: port)
        return try client.request(method, target, headers: headers, body: body)
    }

    /// `GET` with the `url` query parameter percent-encoded.
    func get(_ path: String, url: String) throws -> HTTPTestResponse {
        try request("GET", "\(path)?url=\(Self.queryEncoded(url))")
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters.
    static func queryEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(UnicodeScalar(byte))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }
}

extension HTTPTestResponse {
    /// The body parsed as JSON.
    func parsedJSON() throws -> Any {
        try JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])
    }

    /// The body parsed as a JSON object.
    func object() throws -> [String: Any] {
        try #require(try parsedJSON() as? [String: Any])
    }
}
