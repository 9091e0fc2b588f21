import SwitchboardCore
import SwitchboardHTTP

/// `switchboard.yaml`: server settings. Every key is optional (design.md §2, §7); each is
/// declared once, with whether it applies at start only, in ``keys``. Every start-only key can
/// also come from the environment (``SettingsEnvironment``).
package struct ServerSettings: Sendable, Hashable, KeyedSettings {
    /// `host:port` to listen on; port 0 picks a free port (logged).
    package var listen: String = "127.0.0.1:8080"
    /// `host:port` of the admin listener; when set, the operator endpoints (`/admin/…`,
    /// `/console`, `/metrics`, `/openapi.yaml`) answer only there (design.md §2 "Listeners and TLS").
    package var adminListen: String?
    /// The certificate and key `listen` serves HTTPS with; `nil` serves plain HTTP.
    package var tls: TLSFiles?
    /// The certificate and key `admin_listen` serves HTTPS with; `nil` serves plain HTTP.
    package var adminTLS: TLSFiles?
    /// Custom URL schemes whose links are app links (compared lowercased).
    package var schemes: [String] = []
    /// Web domains whose `http(s)` links are app links (compared lowercased).
    package var domains: [String] = []
    /// Where admin-pushed state is persisted; relative paths are relative to the working
    /// directory (not to the config directory, which is watched).
    package var dataDir: String = "./data"
    /// The environment variable holding the admin bearer token; admin calls get 403 while unset.
    package var adminTokenEnv: String = "SWITCHBOARD_ADMIN_TOKEN"
    /// The file holding the admin bearer token (a mounted Secret); when set, it is read instead
    /// of ``adminTokenEnv``, at start and at every reload.
    package var adminTokenFile: String?
    /// More admin tokens, each with a name the history records (the token of
    /// `admin_token_env` is named `admin`).
    package var adminTokens: [AdminTokenSetting] = []
    /// How many admin changes the history keeps (oldest dropped first).
    package var historyLimit: Int = 100
    /// Where the admin state lives: `nil` or `file` for `data_dir/state.json`, or a
    /// `postgres://` URL shared by replicas (the `SWITCHBOARD_STORE` variable overrides it, as
    /// the environment overrides every start-only key: ``SettingsEnvironment``).
    package var store: String?
    /// Template for unmatched URLs (rewrite-target variables, of the input URL).
    package var fallback: String?
    /// Hosts `GET /open` may redirect to: exact hosts, or `*.example.com` for its subdomains.
    package var redirectAllow: [String] = []
    /// Whether `GET /open` may redirect to `http` (not only `https`) URLs.
    package var redirectAllowHTTP: Bool = false
    /// Apps published in the association files (`/.well-known/…`).
    package var apps: AppsSettings = AppsSettings()
    /// The service's public base (`https://go.example.com`): the `/open` links that
    /// `GET /qr` encodes start with it.
    package var publicURL: String?
    /// What a shared link shows in chat apps when its route gives no `preview:`.
    package var linkPreview: LinkPreview = LinkPreview()
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
    /// off); see docs/resolution.md "Resolve cache".
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
    /// The recent requests kept for `POST /admin/preview` (docs/impact-preview.md "Traffic sample").
    package var trafficSample = TrafficSampleSettings()
    /// Resolutions counted over time, kept in the store (docs/analytics.md).
    package var analytics = AnalyticsSettings()

    /// design.md §7 limits, all configurable.
    package struct Limits: Sendable, Hashable, KeyedSettings {
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

        /// Every key: the limits of connections and requests apply at start only, those of the
        /// admin state at every reload.
        static let keys: [SettingKey<Limits>] = [
            .value("max_url_bytes", \.maxURLBytes, .atStart, valid: 1...Int.max, "a positive number"),
            .value("max_body_bytes", \.maxBodyBytes, .atStart, valid: 1...Int.max, "a positive number"),
            .value("max_admin_rules", \.maxAdminRules, valid: 1...Int.max, "a positive number"),
            .value("max_routes", \.maxRoutes, valid: 1...Int.max, "a positive number"),
            .value("connection_timeout_seconds", \.connectionTimeoutSeconds, .atStart, valid: 1...Int.max, "a positive number"),
            .value("max_connections", \.maxConnections, .atStart, valid: 1...Int.max, "a positive number"),
            .value("max_connections_per_client", \.maxConnectionsPerClient, .atStart, valid: 1...Int.max, "a positive number"),
            .value("request_timeout_seconds", \.requestTimeoutSeconds, .atStart, valid: 1...Int.max, "a positive number"),
        ]

        package init(from decoder: any Decoder) throws {
            try self.init(decodingKeysOf: decoder)
        }
    }

    package init() {}

    /// Where the token named `admin` is read: ``adminTokenFile`` when set, else ``adminTokenEnv``.
    package var adminTokenSource: AdminTokenSource {
        adminTokenFile.map(AdminTokenSource.file) ?? .environment(adminTokenEnv)
    }

    /// What `drain_seconds` and `shutdown_grace_seconds` may be (and `serve --drain-seconds`).
    package static let shutdownSecondsRange = 0...3600
    private static let shutdownSecondsText =
        "between \(shutdownSecondsRange.lowerBound) and \(shutdownSecondsRange.upperBound) seconds"

    /// Every key of `switchboard.yaml`, in the order errors list them; ``startOnlyChanges(since:)``
    /// reports the `.atStart` ones a reload changes.
    static let keys: [SettingKey<ServerSettings>] = [
        .value("listen", \.listen, .atStart),
        .optional("admin_listen", \.adminListen, .atStart, problem: listenAddressProblem),
        .optional("tls", \.tls, .atStart),
        .optional("admin_tls", \.adminTLS, .atStart),
        .value(
            "schemes", \.schemes, normalized: { $0.map { $0.lowercased() } },
            problem: { schemes in
                schemes.first { $0 == "http" || $0 == "https" }.map { "'\($0)' is not a custom scheme; list web hosts under 'domains'" }
            }),
        .value("domains", \.domains, normalized: { $0.map { $0.lowercased() } }),
        .optional("fallback", \.fallback),
        .optional("threads", \.threads, .atStart, valid: 1...256),
        .group("limits", \.limits),
        .value("apps", \.apps),
        .optional(
            "public_url", \.publicURL,
            problem: { url in
                ServerSettings.publicURLProblem(url).map { "public_url: \($0)" }
            }),
        .value("link_preview", \.linkPreview),
        .value("data_dir", \.dataDir, .atStart),
        .value("admin_token_env", \.adminTokenEnv),
        .optional("admin_token_file", \.adminTokenFile, problem: { $0.isEmpty ? "'admin_token_file' is empty: give a path" : nil }),
        .value(
            "admin_tokens", \.adminTokens,
            problem: { tokens in
                var names: Set<String> = ["admin"]
                return tokens.first { !names.insert($0.name).inserted }.map {
                    "admin_tokens: the name '\($0.name)' is used twice ('admin' is the token of admin_token_env)"
                }
            }),
        .value("history_limit", \.historyLimit, valid: 1...10_000),
        .optional("store", \.store, .atStart),
        .value("access_log", \.accessLog, .atStart),
        .value(
            "resolve_cache_bytes", \.resolveCacheBytes, valid: 0...(1 << 34), "between 0 (no cache) and 17179869184 (16 GiB)"),
        .value(
            "redirect_allow", \.redirectAllow, normalized: { $0.map { $0.lowercased() } },
            problem: { entries in
                entries.lazy.compactMap(RedirectPolicy.entryProblem).first.map { "redirect_allow: \($0)" }
            }),
        .value("redirect_allow_http", \.redirectAllowHTTP),
        .value("drain_seconds", \.drainSeconds, .atStart, valid: shutdownSecondsRange, shutdownSecondsText),
        .value("shutdown_grace_seconds", \.shutdownGraceSeconds, .atStart, valid: shutdownSecondsRange, shutdownSecondsText),
        .value("metrics_route_series", \.metricsRouteSeries, .atStart, valid: 0...10_000),
        .value("access_log_query", \.accessLogQuery, .atStart),
        .value("log_format", \.logFormat, .atStart),
        .value(
            "cors_allowed_origins", \.corsAllowedOrigins,
            problem: { origins in
                origins.first { $0 != "*" && !CORSPolicy.isOrigin($0) }.map {
                    "cors_allowed_origins: '\($0)' is not an origin (scheme://host[:port], no path) or '*'"
                }
            }),
        .value("console", \.console),
        .value("traffic_sample", \.trafficSample, .atStart),
        .group("analytics", \.analytics),
    ]

    package init(from decoder: any Decoder) throws {
        try self.init(decodingKeysOf: decoder)
        if let problem = listenersProblem {
            let container = try decoder.container(keyedBy: AnyCodingKey.self)
            throw DecodingError.dataCorruptedError(
                forKey: AnyCodingKey(stringValue: adminTLS != nil && adminListen == nil ? "admin_tls" : "admin_listen"),
                in: container, debugDescription: problem)
        }
    }

    /// What is wrong with a listen address as written, or `nil`.
    private static func listenAddressProblem(_ text: String) -> String? {
        do throws(HTTPServerError) {
            _ = try HTTPServerConfiguration.parseListenAddress(text)
            return nil
        } catch {
            return error.description
        }
    }

    /// What is wrong with the listeners taken together, or `nil`: an admin listener on the public
    /// one's address would make the two one socket, and `admin_tls` needs an admin listener.
    package var listenersProblem: String? {
        if adminTLS != nil, adminListen == nil {
            return "'admin_tls' is set but 'admin_listen' is not: set admin_listen (e.g. 127.0.0.1:9090) or remove admin_tls"
        }
        guard let adminListen,
            let admin = try? HTTPServerConfiguration.parseListenAddress(adminListen),
            let main = try? HTTPServerConfiguration.parseListenAddress(listen),
            admin.port != 0, admin.port == main.port
        else { return nil }
        let hosts = [admin.host, main.host].map(HTTPServerConfiguration.numericHost)
        // A wildcard address takes the port on every interface, the other host's included.
        guard hosts[0] == hosts[1] || hosts.contains("0.0.0.0") || hosts.contains("::") else { return nil }
        return "'admin_listen' (\(adminListen)) is the address of 'listen' (\(listen)): give the admin listener a "
            + "port of its own, e.g. 127.0.0.1:9090"
    }

    /// Why a `public_url` is unusable: it must be an absolute `http(s)` URL with a host and
    /// no query or fragment (`/open?url=…` is appended to it).
    static func publicURLProblem(_ text: String) -> String? {
        guard let url = try? ParsedURL.parse(text), url.isHTTP, url.host?.isEmpty == false, url.query == nil, url.fragment == nil
        else { return "'\(text)' is not an absolute http(s) URL without query, such as https://go.example.com" }
        return nil
    }
}
