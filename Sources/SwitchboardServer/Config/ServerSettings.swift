import SwitchboardCore

/// `switchboard.yaml`: server settings. Every key is optional (design.md §2, §7).
package struct ServerSettings: Sendable, Hashable, Codable {
    /// `host:port` to listen on; port 0 picks a free port (logged).
    package var listen: String = "127.0.0.1:8080"
    /// Custom URL schemes whose links are app links (compared lowercased).
    package var schemes: [String] = []
    /// Web domains whose `http(s)` links are app links (compared lowercased).
    package var domains: [String] = []
    /// Where admin-pushed state is persisted; relative paths are relative to the working
    /// directory (not to the config directory, which is watched).
    package var dataDir: String = "./data"
    /// The environment variable holding the admin bearer token; admin calls get 403 while unset.
    package var adminTokenEnv: String = "SWITCHBOARD_ADMIN_TOKEN"
    /// More admin tokens, each with a name the history records (the token of
    /// `admin_token_env` is named `admin`).
    package var adminTokens: [AdminTokenSetting] = []
    /// How many admin changes the history keeps (oldest dropped first).
    package var historyLimit: Int = 100
    /// Where the admin state lives: `nil` or `file` for `data_dir/state.json`, or a
    /// `postgres://` URL shared by replicas (the `SWITCHBOARD_STORE` variable overrides it).
    package var store: String?
    /// Template for unmatched URLs (rewrite-target variables, of the input URL).
    package var fallback: String?
    /// Hosts `GET /open` may redirect to: exact hosts, or `*.example.com` for its subdomains.
    package var redirectAllow: [String] = []
    /// Whether `GET /open` may redirect to `http` (not only `https`) URLs.
    package var redirectAllowHTTP: Bool = false
    /// Apps published in the association files (`/.well-known/…`).
    package var apps: AppsSettings = AppsSettings()
    /// Worker threads of the HTTP server; `nil` = one per core, and at least one per 256 of
    /// `limits.max_connections` (`HTTPServerConfiguration.defaultThreadPoolSize(maxConnections:)`).
    package var threads: Int?
    /// Log one line per request.
    package var accessLog: Bool = false
    /// Whether the access log keeps query values; by default it keeps the names only
    /// (`/resolve?url=*`), since deep links can carry tokens and personal data.
    package var accessLogQuery: Bool = false
    /// `text` (one line of text per event) or `json` (one JSON object per line).
    package var logFormat: LogFormat = .text
    /// Origins whose pages may call `/resolve`, `/open` and the `.well-known` files from
    /// JavaScript (CORS): exact origins (`https://m.shop.example.com`) or `*` for any.
    package var corsAllowedOrigins: [String] = []

    /// How log events are written.
    package enum LogFormat: String, Sendable, Hashable, Codable {
        /// swift-log's text lines.
        case text
        /// One JSON object per line: `time`, `level`, `message`, `label` and the metadata.
        case json
    }
    /// Memory for finished `GET /resolve` answers of the current snapshot (0 turns the cache
    /// off); see README "Resolve cache".
    package var resolveCacheBytes: Int = 16 * 1024 * 1024
    /// Limits; every one is a clear 4xx when hit.
    package var limits: Limits = Limits()
    /// On a graceful shutdown, how long to keep serving while `/readyz` says 503, so that load
    /// balancers stop sending traffic before the listener closes (0 for tests and local use).
    package var drainSeconds: Int = 5
    /// After the drain period, how long requests in flight may take to finish.
    package var shutdownGraceSeconds: Int = 10
    /// Routes with a `switchboard_route_hits_total` series of their own (the others are
    /// summed under `route="_other"`), so that a million routes cannot make a million series.
    package var metricsRouteSeries: Int = 100
    /// The admin console at `/console`; off unless enabled.
    package var console: ConsoleSettings = ConsoleSettings()
    /// The recent requests kept for `POST /admin/preview` (README "Traffic sample").
    package var trafficSample = TrafficSampleSettings()

    /// design.md §7 limits, all configurable.
    package struct Limits: Sendable, Hashable, Codable {
        package var maxURLBytes: Int = 8 * 1024
        package var maxBodyBytes: Int = 1024 * 1024
        package var maxAdminRules: Int = 10_000
        package var maxRoutes: Int = 1_000_000
        package var connectionTimeoutSeconds: Int = 30
        package var maxConnections: Int = 1_024
        /// Connections one client IP address may hold; over it, `503 too_many_connections`.
        /// Behind a proxy every client has the proxy's address: raise it to `max_connections`.
        package var maxConnectionsPerClient: Int = 256
        /// Seconds a request (head and body) has to arrive whole; then `408` and close.
        package var requestTimeoutSeconds: Int = 10

        package init() {}

        enum CodingKeys: String, CodingKey, CaseIterable {
            case maxURLBytes = "max_url_bytes"
            case maxBodyBytes = "max_body_bytes"
            case maxAdminRules = "max_admin_rules"
            case maxRoutes = "max_routes"
            case connectionTimeoutSeconds = "connection_timeout_seconds"
            case maxConnections = "max_connections"
            case maxConnectionsPerClient = "max_connections_per_client"
            case requestTimeoutSeconds = "request_timeout_seconds"
        }

        package init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(CodingKeys.self)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            func positive(_ key: CodingKeys, _ fallback: Int) throws -> Int {
                guard let value = try container.decodeIfPresent(Int.self, forKey: key) else { return fallback }
                guard value > 0 else {
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: container, debugDescription: "'\(key.rawValue)' must be a positive number")
                }
                return value
            }
            let defaults = Limits()
            maxURLBytes = try positive(.maxURLBytes, defaults.maxURLBytes)
            maxBodyBytes = try positive(.maxBodyBytes, defaults.maxBodyBytes)
            maxAdminRules = try positive(.maxAdminRules, defaults.maxAdminRules)
            maxRoutes = try positive(.maxRoutes, defaults.maxRoutes)
            connectionTimeoutSeconds = try positive(.connectionTimeoutSeconds, defaults.connectionTimeoutSeconds)
            maxConnections = try positive(.maxConnections, defaults.maxConnections)
            maxConnectionsPerClient = try positive(.maxConnectionsPerClient, defaults.maxConnectionsPerClient)
            requestTimeoutSeconds = try positive(.requestTimeoutSeconds, defaults.requestTimeoutSeconds)
        }
    }

    package init() {}

    /// The admin store to use: `SWITCHBOARD_STORE` when set, else ``store``.
    package func storeChoice(environment: [String: String]) -> String? {
        environment["SWITCHBOARD_STORE"].flatMap { $0.isEmpty ? nil : $0 } ?? store
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case listen, schemes, domains, fallback, threads, limits, apps
        case dataDir = "data_dir"
        case adminTokenEnv = "admin_token_env"
        case adminTokens = "admin_tokens"
        case historyLimit = "history_limit"
        case store
        case accessLog = "access_log"
        case resolveCacheBytes = "resolve_cache_bytes"
        case redirectAllow = "redirect_allow"
        case redirectAllowHTTP = "redirect_allow_http"
        case drainSeconds = "drain_seconds"
        case shutdownGraceSeconds = "shutdown_grace_seconds"
        case metricsRouteSeries = "metrics_route_series"
        case accessLogQuery = "access_log_query"
        case logFormat = "log_format"
        case corsAllowedOrigins = "cors_allowed_origins"
        case console
        case trafficSample = "traffic_sample"
    }

    package init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = ServerSettings()
        listen = try container.decodeIfPresent(String.self, forKey: .listen) ?? defaults.listen
        schemes = try (container.decodeIfPresent([String].self, forKey: .schemes) ?? []).map { $0.lowercased() }
        domains = try (container.decodeIfPresent([String].self, forKey: .domains) ?? []).map { $0.lowercased() }
        dataDir = try container.decodeIfPresent(String.self, forKey: .dataDir) ?? defaults.dataDir
        adminTokenEnv = try container.decodeIfPresent(String.self, forKey: .adminTokenEnv) ?? defaults.adminTokenEnv
        adminTokens = try container.decodeIfPresent([AdminTokenSetting].self, forKey: .adminTokens) ?? []
        var names: Set<String> = ["admin"]
        for token in adminTokens where !names.insert(token.name).inserted {
            throw DecodingError.dataCorruptedError(
                forKey: .adminTokens, in: container,
                debugDescription: "admin_tokens: the name '\(token.name)' is used twice ('admin' is the token of admin_token_env)")
        }
        store = try container.decodeIfPresent(String.self, forKey: .store)
        historyLimit = try container.decodeIfPresent(Int.self, forKey: .historyLimit) ?? defaults.historyLimit
        guard (1...10_000).contains(historyLimit) else {
            throw DecodingError.dataCorruptedError(
                forKey: .historyLimit, in: container, debugDescription: "'history_limit' must be between 1 and 10000")
        }
        fallback = try container.decodeIfPresent(String.self, forKey: .fallback)
        threads = try container.decodeIfPresent(Int.self, forKey: .threads)
        if let threads, threads < 1 || threads > 256 {
            throw DecodingError.dataCorruptedError(
                forKey: .threads, in: container, debugDescription: "'threads' must be between 1 and 256")
        }
        accessLog = try container.decodeIfPresent(Bool.self, forKey: .accessLog) ?? false
        resolveCacheBytes = try container.decodeIfPresent(Int.self, forKey: .resolveCacheBytes) ?? defaults.resolveCacheBytes
        guard (0...(1 << 34)).contains(resolveCacheBytes) else {
            throw DecodingError.dataCorruptedError(
                forKey: .resolveCacheBytes, in: container,
                debugDescription: "'resolve_cache_bytes' must be between 0 (no cache) and 17179869184 (16 GiB)")
        }
        limits = try container.decodeIfPresent(Limits.self, forKey: .limits) ?? Limits()
        redirectAllow = try (container.decodeIfPresent([String].self, forKey: .redirectAllow) ?? []).map { $0.lowercased() }
        for entry in redirectAllow {
            if let problem = RedirectPolicy.entryProblem(entry) {
                throw DecodingError.dataCorruptedError(
                    forKey: .redirectAllow, in: container, debugDescription: "redirect_allow: \(problem)")
            }
        }
        redirectAllowHTTP = try container.decodeIfPresent(Bool.self, forKey: .redirectAllowHTTP) ?? false
        apps = try container.decodeIfPresent(AppsSettings.self, forKey: .apps) ?? AppsSettings()
        for (key, value) in [(CodingKeys.drainSeconds, \ServerSettings.drainSeconds), (.shutdownGraceSeconds, \.shutdownGraceSeconds)] {
            let seconds = try container.decodeIfPresent(Int.self, forKey: key) ?? defaults[keyPath: value]
            guard (0...3600).contains(seconds) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "'\(key.rawValue)' must be between 0 and 3600 seconds")
            }
            self[keyPath: value] = seconds
        }
        accessLogQuery = try container.decodeIfPresent(Bool.self, forKey: .accessLogQuery) ?? false
        logFormat = try container.decodeIfPresent(LogFormat.self, forKey: .logFormat) ?? .text
        corsAllowedOrigins = try container.decodeIfPresent([String].self, forKey: .corsAllowedOrigins) ?? []
        for origin in corsAllowedOrigins where origin != "*" && !CORSPolicy.isOrigin(origin) {
            throw DecodingError.dataCorruptedError(
                forKey: .corsAllowedOrigins, in: container,
                debugDescription: "cors_allowed_origins: '\(origin)' is not an origin (scheme://host[:port], no path) or '*'")
        }
        metricsRouteSeries = try container.decodeIfPresent(Int.self, forKey: .metricsRouteSeries) ?? defaults.metricsRouteSeries
        guard (0...10_000).contains(metricsRouteSeries) else {
            throw DecodingError.dataCorruptedError(
                forKey: .metricsRouteSeries, in: container, debugDescription: "'metrics_route_series' must be between 0 and 10000")
        }
        console = try container.decodeIfPresent(ConsoleSettings.self, forKey: .console) ?? ConsoleSettings()
        trafficSample = try container.decodeIfPresent(TrafficSampleSettings.self, forKey: .trafficSample) ?? TrafficSampleSettings()
        for scheme in schemes where scheme == "http" || scheme == "https" {
            throw DecodingError.dataCorruptedError(
                forKey: .schemes, in: container,
                debugDescription: "'\(scheme)' is not a custom scheme; list web hosts under 'domains'")
        }
    }
}
