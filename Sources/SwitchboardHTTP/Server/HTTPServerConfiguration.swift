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
    /// Worker threads for the thread-pool modes (default:
    /// ``defaultThreadPoolSize(maxConnections:)``).
    package var threadPoolSize: Int
    /// Connections served at once (default 1,024). A connection over it is still accepted
    /// (libmicrohttpd's own limit is ``libraryConnectionLimit``): its request gets `503
    /// too_many_connections` with `Retry-After` and the connection is closed, unless the
    /// request is for one of ``probePaths``.
    package var maxConnections: Int
    /// Connections served at once for one client IP address (default 256); over it, the
    /// same `503` as over ``maxConnections``.
    package var maxConnectionsPerClient: Int
    /// Paths answered even for a connection over the connection limits (health and
    /// readiness probes must not be starved by clients); the connection is closed after the
    /// answer. The HTTP layer knows no endpoint: the application names them.
    package var probePaths: Set<String>
    /// Idle time after which a connection is closed (whole seconds, default 30 s).
    package var connectionTimeout: Duration
    /// Time a request has to arrive whole, head and body (default 10 s), counted from the
    /// opening of the connection or, on a keep-alive connection, from the request line (a
    /// keep-alive connection may first idle for ``connectionTimeout``). Past it the client
    /// gets `408 request_timeout` and the connection is closed, however steadily the bytes
    /// trickle in: the connection timeout alone only catches silence.
    package var requestTimeout: Duration
    /// Memory libmicrohttpd may use per connection for the request line, headers and
    /// buffers (default 24 KiB: beside an 8 KiB URL about 10 KB of headers, measured; more
    /// headers get libmicrohttpd's own 431). Must leave room for a URL of `maxURLLength` plus
    /// headers.
    ///
    /// Bigger is not free: libmicrohttpd 0.9.75 zeroes the whole pool before every
    /// keep-alive request, and with many connections the pools outgrow the CPU caches (64 KiB
    /// measured 1–2 µs more CPU per request than 32 KiB, and 32 KiB 2–8 % more than 24 KiB).
    package var connectionMemoryLimit: Int
    /// Longest accepted request target (path + query) in bytes; longer gets
    /// `414 url_too_long` (default 8 KiB).
    package var maxURLLength: Int
    /// Largest accepted request body in bytes; larger gets `413 body_too_large`
    /// (default 1 MiB).
    package var maxBodySize: Int
    /// Bytes of a refused request body read and thrown away so that the client can receive
    /// its answer: of an over-limit *chunked* body before the 413 (past this the connection is
    /// dropped without an answer), and after an early refusal while the connection closes in
    /// stages (RFC 9112 §9.6; default 4 MiB).
    package var maxDiscardedBodySize: Int
    /// How long a graceful shutdown lets requests in flight finish before closing their
    /// connections (default 10 s).
    package var shutdownGrace: Duration
    /// The certificate served over HTTPS, replaceable while serving; `nil` (the default)
    /// serves plain HTTP.
    package var tls: ServedCertificate?

    /// The most of ``maxConnections`` one `poll` worker is given by default.
    ///
    /// libmicrohttpd 0.9.75 takes one new connection per turn of a worker's loop, and each turn
    /// visits every connection of the worker, so a worker holding many busy connections turns
    /// slowly and some of its clients wait whole seconds. Measured here with 1,024 busy
    /// connections (distinct links, wrk on the same 2 cores): libmicrohttpd alone with one worker
    /// had a p99 of 2.15 s; Switchboard with two workers 0.9–2.3 s, with four 58–69 ms. On the
    /// same 2 cores, four workers took 9–21 % less CPU per request than two at 64 and 256
    /// connections, and 0–25 % more at 1,024.
    package static let connectionsPerPollWorker = 256
    /// The most workers ``defaultThreadPoolSize(maxConnections:)`` adds for connections.
    private static let maximumWorkersForConnections = 64

    /// The default worker count: one per active processor, and at least one per
    /// ``connectionsPerPollWorker`` of `maxConnections` (up to 64 for the connections).
    package static func defaultThreadPoolSize(maxConnections: Int) -> Int {
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let forConnections = (max(1, maxConnections) + connectionsPerPollWorker - 1) / connectionsPerPollWorker
        return max(cores, min(forConnections, maximumWorkersForConnections))
    }

    /// Creates a configuration with the defaults of design.md §7.
    package init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        threadingMode: HTTPThreadingMode = .pollThreadPool,
        threadPoolSize: Int? = nil,
        maxConnections: Int = 1024,
        maxConnectionsPerClient: Int = 256,
        probePaths: Set<String> = [],
        connectionTimeout: Duration = .seconds(30),
        requestTimeout: Duration = .seconds(10),
        connectionMemoryLimit: Int = 24 * 1024,
        maxURLLength: Int = 8 * 1024,
        maxBodySize: Int = 1024 * 1024,
        maxDiscardedBodySize: Int = 4 * 1024 * 1024,
        shutdownGrace: Duration = .seconds(10),
        tls: ServedCertificate? = nil
    ) {
        self.host = host
        self.port = port
        self.threadingMode = threadingMode
        self.threadPoolSize = threadPoolSize ?? Self.defaultThreadPoolSize(maxConnections: maxConnections)
        self.maxConnections = maxConnections
        self.maxConnectionsPerClient = maxConnectionsPerClient
        self.probePaths = probePaths
        self.connectionTimeout = connectionTimeout
        self.requestTimeout = requestTimeout
        self.connectionMemoryLimit = connectionMemoryLimit
        self.maxURLLength = maxURLLength
        self.maxBodySize = maxBodySize
        self.maxDiscardedBodySize = maxDiscardedBodySize
        self.shutdownGrace = shutdownGrace
        self.tls = tls
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

    /// Connections libmicrohttpd itself holds: ``maxConnections`` plus room for the clients
    /// over it, so that they are accepted and answered (a `503`, or a probe) instead of
    /// waiting unanswered in the listen backlog. They are answered at once or closed after a
    /// short grace, so the room turns over quickly.
    package var libraryConnectionLimit: Int {
        maxConnections + min(max(16, maxConnections / 8), 256)
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
        guard (1...1_000_000).contains(maxConnectionsPerClient) else {
            throw invalid("maxConnectionsPerClient", maxConnectionsPerClient, "must be 1...1000000")
        }
        guard requestTimeout >= .seconds(1), requestTimeout <= .seconds(86_400) else {
            throw invalid(
                "requestTimeout", requestTimeout, "must be 1 s...1 day; without it a client can trickle a request forever")
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
            // libmicrohttpd holds up to libraryConnectionLimit, the room over maxConnections included.
            let neededWorkers = (libraryConnectionLimit + perWorker - 1) / perWorker
            guard threadPoolSize >= neededWorkers else {
                let room = libraryConnectionLimit - maxConnections
                throw HTTPServerError(
                    .invalidConfiguration,
                    "threadingMode epoll with \(threadPoolSize) worker(s) and maxConnections \(maxConnections) "
                        + "(+\(room) for clients over it) can stall: libmicrohttpd 0.9.75 blocks a worker that sees "
                        + "exactly 128 ready connections",
                    context: "threadingMode, threadPoolSize, maxConnections",
                    fix: "use threadingMode poll, or threadPoolSize ≥ \(neededWorkers), "
                        + "or lower maxConnections so that maxConnections + its room ≤ \(perWorker * threadPoolSize)")
            }
        }
    }

    private func invalid(_ setting: String, _ value: some Any, _ rule: String) -> HTTPServerError {
        HTTPServerError(
            .invalidConfiguration, "\(setting) \(value) is out of range", context: "HTTP server setting \(setting)",
            fix: "\(setting) \(rule)")
    }
}
