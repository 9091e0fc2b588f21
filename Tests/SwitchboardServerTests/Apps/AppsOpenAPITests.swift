import SwitchboardTestSupport
import Testing

@testable import SwitchboardServer

/// The app-link endpoints (`/open`, the association files, batch resolve) are described in the served `openapi.yaml`.
@Suite("openapi.yaml documents the app endpoints")
struct AppsOpenAPITests {
    /// `(path, method)` pairs of the app-link endpoints.
    static let served: [(path: String, method: String)] = [
        ("/resolve", "post"),
        ("/open", "get"),
        ("/.well-known/apple-app-site-association", "get"),
        ("/.well-known/assetlinks.json", "get"),
    ]

    @Test("every app endpoint has its path and method in openapi.yaml")
    func documented() throws {
        let text = String(decoding: PackageResources.openapi_yaml, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (path, method) in Self.served {
            let start = try #require(lines.firstIndex(of: "  \(path):"), "\(path) is not in openapi.yaml")
            let block = lines[(start + 1)...].prefix { $0.hasPrefix("    ") || $0.isEmpty }
            #expect(block.contains("    \(method):"), "\(method.uppercased()) \(path) is not in openapi.yaml")
        }
    }
}
