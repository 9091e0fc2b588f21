import Foundation
import Testing

/// A fresh directory under the system temp directory, removed when the test is done.
final class TemporaryDirectory: Sendable {
    let url: URL
    var path: String { url.path }

    init(prefix: String = "switchboard-tests") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `text` to `relativePath`, creating the folders on the way.
    func write(_ relativePath: String, _ text: String) throws {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    /// Writes each `path: text` pair.
    func write(_ files: KeyValuePairs<String, String>) throws {
        for (path, text) in files { try write(path, text) }
    }

    /// The names in `relativePath` (the directory itself by default), sorted.
    func contents(of relativePath: String = "") throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent(relativePath).path).sorted()
    }
}

/// Paths inside the package checkout.
enum Package {
    /// The package root (the directory holding `Package.swift`).
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // SwitchboardServerTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// The demo config the quick start serves.
    static var demoConfig: String { root.appendingPathComponent("config").path }
}
