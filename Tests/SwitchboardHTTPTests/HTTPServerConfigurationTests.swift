import Foundation
import SwitchboardHTTP
import SwitchboardTestSupport
import Testing

@Suite("HTTP server configuration")
struct HTTPServerConfigurationTests {
    @Test(
        "valid listen addresses",
        arguments: [
            ("127.0.0.1:8080", "127.0.0.1", 8080),
            ("0.0.0.0:80", "0.0.0.0", 80),
            ("localhost:0", "localhost", 0),
            ("[::1]:8080", "::1", 8080),
            ("[::]:65535", "::", 65_535),
        ])
    func validListenAddress(text: String, host: String, port: Int) throws {
        let parsed = try HTTPServerConfiguration.parseListenAddress(text)
        #expect(parsed.host == host)
        #expect(parsed.port == port)
    }

    @Test(
        "invalid listen addresses name the problem",
        arguments: [
            ("8080", "port is missing"),
            (":8080", "host is missing"),
            ("127.0.0.1:", "not a number"),
            ("127.0.0.1:65536", "not a number"),
            ("127.0.0.1:-1", "not a number"),
            ("127.0.0.1:80a", "not a number"),
            ("::1:8080", "must be in brackets"),
            ("[::1:8080", "no closing"),
            ("[::1]8080", "port must follow"),
            ("example.com:80", "not an IP address"),
            ("[127.0.0.1x]:80", "not an IP address"),
            ("256.1.1.1:80", "not an IP address"),
        ])
    func invalidListenAddress(text: String, problem: String) {
        #expect {
            _ = try HTTPServerConfiguration.parseListenAddress(text)
        } throws: { error in
            guard let error = error as? HTTPServerError else { return false }
            return error.code == .invalidListenAddress && error.description.contains(problem)
                && error.description.contains(text) && error.fix != nil
        }
    }

    @Test("defaults follow design.md §7")
    func defaults() throws {
        let configuration = try HTTPServerConfiguration(listen: "127.0.0.1:8080")
        #expect(configuration.maxURLLength == 8 * 1024)
        #expect(configuration.maxBodySize == 1024 * 1024)
        #expect(configuration.maxConnections == 1024)
        #expect(configuration.connectionTimeout == .seconds(30))
        #expect(configuration.connectionMemoryLimit == 24 * 1024)
        #expect(configuration.threadPoolSize >= 1)
        #expect(configuration.threadingMode == .pollThreadPool)
        try configuration.validate()
    }

    @Test("the default worker count: one per core, and at least one per 256 connections (at most 64 for them)")
    func defaultWorkers() {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        for (connections, forConnections) in [(1, 1), (256, 1), (257, 2), (1024, 4), (2000, 8), (1_000_000, 64)] {
            #expect(HTTPServerConfiguration.defaultThreadPoolSize(maxConnections: connections) == max(cores, forConnections))
        }
        #expect(HTTPServerConfiguration(maxConnections: 2000).threadPoolSize == max(cores, 8))
        #expect(HTTPServerConfiguration(threadPoolSize: 3, maxConnections: 2000).threadPoolSize == 3)
    }

    @Test("epoll with more than 126 connections per worker, the room over the limit included, is refused (0.9.75 stall)")
    func epollGuard() throws {
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, threadingMode: .epollThreadPool)
        configuration.threadPoolSize = 2
        configuration.maxConnections = 225  // + 28 of room = 253 > 2 × 126
        #expect {
            try configuration.validate()
        } throws: { error in
            guard let error = error as? HTTPServerError else { return false }
            return error.code == .invalidConfiguration && error.fix?.contains("threadPoolSize ≥ 3") == true
        }
        configuration.maxConnections = 224  // + 28 = 252
        #expect(configuration.libraryConnectionLimit == 252)
        try configuration.validate()
    }

    @Test("a memory limit without room for the longest URL is refused")
    func memoryLimitGuard() {
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.connectionMemoryLimit = 12 * 1024
        #expect(throws: HTTPServerError.self) { try configuration.validate() }
    }

    @Test("a zero connection timeout is refused")
    func timeoutGuard() {
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.connectionTimeout = .zero
        #expect(throws: HTTPServerError.self) { try configuration.validate() }
    }
}
