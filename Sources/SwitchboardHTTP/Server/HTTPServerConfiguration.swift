import Foundation

/// Everything the HTTP layer needs to listen and to enforce its limits (design.md §7).
///
/// Every property has a default; ``validate()`` (called by `HTTPServer.init`) checks ranges
/// and refuses combinations that libmicrohttpd 0.9.75 mishandles.
///
/// ```swift
/// var configuration = try HTTPServerConfiguration(listen: "127.0.0.1:0")
/// configuration.maxBodySize = 256 * 1024
/// ```
package struct HTTPServerConfiguration: Sendable {
    /// An IPv4 literal (`127.0.0.1`, `0.0.0.0`), an IPv6 literal without brackets (`::1`),
    /// or `localhost` (bound as `127.0.0.1`).
    package var host: String
    /// The TCP port; 0 lets the kernel pick one (read it from `HTTPServer.boundPort`).
    package var port: Int
    /// How connections are spread over threads.
    package var threadingMode: HTTPThreadingMode
    /// Worker threads for the thread-pool modes (default: active processor count).
    package var threadPoolSize: Int
    /// Connections held at once; further clients wait in the listen backlog (default 1,024).
    package var maxConnections: Int
    /// Idle time after which a connection is closed (whole seconds, default 30 s).
    package var connectionTimeout: Duration
    /// Memory libmicrohttpd may use per connection for the request line, headers and
    /// buffers (default 32 KiB: an 8 KiB URL plus about 12 KiB of headers; more headers get
    /// libmicrohttpd's own 431). Must leave room for a URL of `maxURLLength` plus headers.
    ///
    /// Bigger is not free: libmicrohttpd 0.9.75 zeroes the whole pool before every
    /// keep-alive request (64 KiB measured 1–2 µs more CPU per request than 32 KiB).
    package var connectionMemoryLimit: Int
    /// Longest accepted request target (path + query) in bytes; longer gets
    /// `414 url_too_long` (default 8 KiB).
    package var maxURLLength: Int
    /// Largest accepted request body in bytes; larger gets `413 body_too_large`
    /// (default 1 MiB).
    package var maxBodySize: Int
    /// Bytes of an over-limit *chunked* body read and thrown away so the client can receive
    /// its 413; past this the connection is dropped without an answer (default 1 MiB).
    package var maxDiscardedBodySize: Int
    /// How long a graceful shutdown lets requests in flight finish before closing their
    /// connections (default 10 s).
    package var shutdownGrace: Duration

    /// The default worker count: the number of active processors.
    package static var defaultThreadPoolSize: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Creates a configuration with the defaults of design.md §7.
    package init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        threadingMode: HTTPThreadingMode = .pollThreadPool,
        threadPoolSize: Int = HTTPServerConfiguration.defaultThreadPoolSize,
        maxConnections: Int = 1024,
        connectionTimeout: Duration = .seconds(30),
        connectionMemoryLimit: Int = 32 * 1024,
        maxURLLength: Int = 8 * 1024,
        maxBodySize: Int = 1024 * 1024,
        maxDiscardedBodySize: Int = 1024 * 1024,
        shutdownGrace: Duration = .seconds(10)
    ) {
        self.host = host
        self.port = port
        self.threadingMode = threadingMode
        self.threadPoolSize = threadPoolSize
        self.maxConnections = maxConnections
        self.connectionTimeout = connectionTimeout
        self.connectionMemoryLimit = connectionMemoryLimit
        self.maxURLLength = maxURLLength
        self.maxBodySize = maxBodySize
        self.maxDiscardedBodySize = maxDiscardedBodySize
        self.shutdownGrace = shutdownGrace
    }

    /// Creates a configuration listening on a `host:port` string, other settings default.
    ///
    /// - Parameter listen: e.g. `127.0.0.1:8080`, `[::1]:8080`, `localhost:0`.
    /// - Throws: ``HTTPServerError`` (`invalidListenAddress`) saying what is wrong with it.
    package init(listen: String) throws(HTTPServerError) {
        let address = try HTTPServerConfiguration.parseListenAddress(listen)
        self.init(host: address.host, port: address.port)
    }

    /// The listen address as `host:port` (IPv6 in brackets), for logs and errors.
    package var listenDescription: String {
        HTTPServerConfiguration.formatListenAddress(host: host, port: port)
    }

    /// Connection timeout in whole seconds as libmicrohttpd takes it (rounded up).
    var connectionTimeoutSeconds: Int {
        let (seconds, attoseconds) = connectionTimeout.components
        return Int(seconds) + (attoseconds > 0 ? 1 : 0)
    }

    /// Checks every setting; `HTTPServer.init` calls this.
    ///
    /// - Throws: ``HTTPServerError`` naming the setting, its value and an allowed range.
    package func validate() throws(HTTPServerError) {
        _ = try HTTPServerConfiguration.addressFamily(ofHost: host, in: listenDescription)
        guard (0...65_535).contains(port) else {
            throw invalid("port", port, "must be 0...65535 (0 picks a free port)")
        }
        guard (1...4096).contains(threadPoolSize) else {
            throw invalid("threadPoolSize", threadPoolSize, "must be 1...4096")
        }
        guard (1...1_000_000).contains(maxConnections) else {
            throw invalid("maxConnections", maxConnections, "must be 1...1000000")
        }
        let timeout = connectionTimeoutSeconds
        guard (1...86_400).contains(timeout), connectionTimeout > .zero else {
            throw invalid(
                "connectionTimeout", connectionTimeout,
                "must be 1 s...1 day; a connection without a timeout can be held forever")
        }
        guard (1...1_048_576).contains(maxURLLength) else {
            throw invalid("maxURLLength", maxURLLength, "must be 1...1048576 bytes")
        }
        guard connectionMemoryLimit >= maxURLLength + 8 * 1024, connectionMemoryLimit <= 64 * 1024 * 1024 else {
            throw invalid(
                "connectionMemoryLimit", connectionMemoryLimit,
                "must be at least maxURLLength + 8 KiB (\(maxURLLength + 8 * 1024)) so that an over-long URL "
                    + "still reaches the 414 check, and at most 64 MiB")
        }
        guard (0...(1 << 40)).contains(maxBodySize) else {
            throw invalid("maxBodySize", maxBodySize, "must be 0...1 TiB")
        }
        guard shutdownGrace >= .zero, shutdownGrace <= .seconds(3600) else {
            throw invalid("shutdownGrace", shutdownGrace, "must be 0 s...1 hour")
        }
        guard (0...(1 << 40)).contains(maxDiscardedBodySize) else {
            throw invalid("maxDiscardedBodySize", maxDiscardedBodySize, "must be 0...1 TiB")
        }
        if threadingMode == .epollThreadPool {
            let perWorker = HTTPThreadingMode.epollConnectionsPerWorker
            let neededWorkers = (maxConnections + perWorker - 1) / perWorker
            guard threadPoolSize >= neededWorkers else {
                throw HTTPServerError(
                    .invalidConfiguration,
                    "threadingMode epoll with \(threadPoolSize) worker(s) and maxConnections \(maxConnections) "
                        + "can stall: libmicrohttpd 0.9.75 blocks a worker that sees exactly 128 ready connections",
                    context: "threadingMode, threadPoolSize, maxConnections",
                    fix: "use threadingMode poll, or threadPoolSize ≥ \(neededWorkers), "
                        + "or maxConnections ≤ \(perWorker * threadPoolSize)")
            }
        }
    }

    private func invalid(_ setting: String, _ value: some Any, _ rule: String) -> HTTPServerError {
        HTTPServerError(
            .invalidConfiguration, "\(setting) \(value) is out of range", context: "HTTP server setting \(setting)",
            fix: "\(setting) \(rule)")
    }
}
