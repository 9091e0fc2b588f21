import Foundation
import SwitchboardTestSupport
import Testing
import Yams

@testable import SwitchboardServer

/// One version source: `--version`, `switchboard_build_info`, `/livez` and `openapi.yaml` agree
/// and carry the revision; the image runs the binary as its entrypoint, is labelled, and checks
/// its health without a tool of its own; the changelog starts with this version.
@Suite("A releasable build", .blockingIO)
struct ReleaseTests {
    static func read(_ path: String) throws -> String {
        try String(contentsOf: Repository.root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test("openapi.yaml's info.version is the server's version")
    func openAPIVersion() throws {
        let document = try #require(try Yams.load(yaml: Self.read("Sources/SwitchboardServer/Resources/openapi.yaml")) as? [String: Any])
        let info = try #require(document["info"] as? [String: Any])
        #expect(info["version"] as? String == SwitchboardVersion.current)
    }

    @Test("the revision is the checkout's git commit, or what SWITCHBOARD_REVISION said at build time")
    func revision() throws {
        let revision = SwitchboardVersion.revision
        #expect(!revision.isEmpty && revision.allSatisfy { $0.isLetter || $0.isNumber || "._-".contains($0) })
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/git"),
            ProcessInfo.processInfo.environment["SWITCHBOARD_REVISION"] == nil
        else { return }
        let git = try Subprocess.run("/usr/bin/git", ["-C", Repository.root.path, "rev-parse", "HEAD"])
        if git.status == 0 {
            #expect(revision == git.output.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    @Test("/livez, switchboard_build_info and --version say the same version and revision")
    func oneVersion() async throws {
        let server = try await InProcessServer(config: .demo())
        let client = try server.client()
        let livez = try client.request("GET", "/livez").json
        #expect(livez["version"] as? String == SwitchboardVersion.current)
        #expect(livez["revision"] as? String == SwitchboardVersion.revision)
        let metrics = try client.request("GET", "/metrics").text
        #expect(
            metrics.contains(
                "switchboard_build_info{version=\"\(SwitchboardVersion.current)\",revision=\"\(SwitchboardVersion.revision)\"} 1"),
            "\(metrics.prefix(400))")
        let directory = try TemporaryDirectory()
        let printed = try CLITests.run(["--version"], in: directory)
        #expect(printed.stdout == "\(SwitchboardVersion.current) (revision \(SwitchboardVersion.revision))\n", "\(printed)")
    }

    @Test("switchboard healthcheck: 0 when /livez answers, 3 when the server cannot be reached or answers otherwise, 2 for a bad address")
    func healthcheck() async throws {
        let server = try await InProcessServer(config: .demo())
        let directory = try TemporaryDirectory()
        #expect(try CLITests.run(["healthcheck", "--address", "0.0.0.0:\(server.port)"], in: directory).status == 0)
        #expect(
            try CLITests.run(["healthcheck", "--address", "127.0.0.1:\(server.port)", "--path", "/nothing"], in: directory).status == 3)
        try await server.stop()
        let refused = try CLITests.run(["healthcheck", "--address", "127.0.0.1:\(server.port)"], in: directory)
        #expect(refused.status == 3 && refused.stderr.contains("could not be reached"), "\(refused)")
        #expect(try CLITests.run(["healthcheck", "--address", "nonsense"], in: directory).status == 2)
    }

    /// The runtime stage of the Dockerfile, continuation lines joined.
    static func runtimeStage() throws -> [String] {
        let lines = try read("Dockerfile").replacingOccurrences(of: "\\\n", with: " ").split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.hasPrefix("#") }
        return Array(lines[(lines.lastIndex { $0.hasPrefix("FROM ") } ?? 0)...])
    }

    @Test("the image: the binary as ENTRYPOINT and serve as CMD, OCI labels, a health check with a start period and no curl")
    func image() throws {
        let stage = try Self.runtimeStage()
        #expect(stage.contains(#"ENTRYPOINT ["switchboard"]"#), "\(stage)")
        #expect(stage.contains { $0.hasPrefix(#"CMD ["serve""#) }, "\(stage)")
        let healthcheck = try #require(stage.first { $0.hasPrefix("HEALTHCHECK ") })
        #expect(healthcheck.contains("--start-period=") && healthcheck.hasSuffix(#"CMD ["switchboard", "healthcheck"]"#))
        // libcurl4 is a library the command line's URLSession links; the curl tool is not installed.
        let installed = stage.filter { $0.hasPrefix("RUN ") }.flatMap { $0.split(whereSeparator: \.isWhitespace) }
        #expect(!installed.contains("curl"), "the runtime image installs curl")
        let labels = try #require(stage.first { $0.hasPrefix("LABEL ") })
        for label in ["title", "description", "revision=\"$REVISION\"", "version=\"\(SwitchboardVersion.current)\"", "licenses"] {
            #expect(labels.contains("org.opencontainers.image.\(label)"), "\(label)")
        }
        let build = try Self.read("Dockerfile").split(separator: "\n").map(String.init)
        let resolve = try #require(build.firstIndex { $0.hasPrefix("RUN swift package resolve") })
        let sources = try #require(build.firstIndex { $0.hasPrefix("COPY Sources") })
        #expect(resolve < sources, "dependencies are resolved in a layer before the sources are copied")
        #expect(build.contains { $0.contains("SWITCHBOARD_REVISION=\"$REVISION\" swift build") })
    }

    @Test("CHANGELOG.md is in Keep a Changelog form and starts with Unreleased, then this version")
    func changelog() throws {
        let headings = try Self.read("CHANGELOG.md").split(separator: "\n").filter { $0.hasPrefix("## ") }
        #expect(headings.first == "## [Unreleased]")
        #expect(headings.dropFirst().first?.hasPrefix("## [\(SwitchboardVersion.current)]") == true, "\(headings)")
    }
}
