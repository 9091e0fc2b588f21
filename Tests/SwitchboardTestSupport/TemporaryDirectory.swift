import Foundation
import Testing

/// A fresh directory under the system temp directory, removed when the test is done.
package final class TemporaryDirectory: Sendable {
    package let url: URL
    package var path: String { url.path }

    package init(prefix: String = "switchboard-tests") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `text` to `relativePath`, creating the folders on the way.
    package func write(_ relativePath: String, _ text: String) throws {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    /// Writes each `path: text` pair.
    package func write(_ files: KeyValuePairs<String, String>) throws {
        for (path, text) in files { try write(path, text) }
    }

    /// The names in `relativePath` (the directory itself by default), sorted.
    package func contents(of relativePath: String = "") throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent(relativePath).path).sorted()
    }
}

/// Paths inside the package checkout.
package enum Package {
    /// The package root (the directory holding `Package.swift`).
    package static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // SwitchboardTestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// The demo config the quick start serves.
    package static var demoConfig: String { root.appendingPathComponent("config").path }
}
