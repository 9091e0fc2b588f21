import Foundation
import SwitchboardCore
import SwitchboardTestSupport
import Testing

@testable import SwitchboardServer

/// The settings are declared once (``ServerSettings/keys``): their decoding, the unknown-key
/// check and the start-only comparison of a reload follow that table.
@Suite("Settings keys")
struct SettingKeysTests {
    /// A value other than the default for every key of `switchboard.yaml`, by its dotted name,
    /// and whether it applies at start only. A new key is added here too.
    static let changes: [(key: String, yaml: String, atStart: Bool)] = [
        ("listen", "listen: \"127.0.0.1:1\"", true),
        ("admin_listen", "admin_listen: \"127.0.0.1:2\"", true),
        ("tls", "tls: { cert_file: tls.crt, key_file: tls.key }", true),
        ("admin_tls", "admin_listen: \"127.0.0.1:2\"\nadmin_tls: { cert_file: tls.crt, key_file: tls.key }", true),
        ("schemes", "schemes: [otherapp]", false),
        ("domains", "domains: [example.com]", false),
        ("fallback", "fallback: \"https://example.com\"", false),
        ("threads", "threads: 3", true),
        ("limits.max_url_bytes", "limits: { max_url_bytes: 4096 }", true),
        ("limits.max_body_bytes", "limits: { max_body_bytes: 4096 }", true),
        ("limits.max_admin_rules", "limits: { max_admin_rules: 5 }", false),
        ("limits.max_routes", "limits: { max_routes: 999999 }", false),
        ("limits.connection_timeout_seconds", "limits: { connection_timeout_seconds: 7 }", true),
        ("limits.max_connections", "limits: { max_connections: 99 }", true),
        ("limits.max_connections_per_client", "limits: { max_connections_per_client: 9 }", true),
        ("limits.request_timeout_seconds", "limits: { request_timeout_seconds: 7 }", true),
        ("apps", "apps: { ios: [{ appID: \"TEAM123456.com.example.app\" }] }", false),
        ("public_url", "public_url: \"https://go.example.com\"", false),
        ("link_preview", "link_preview: { title: Shop }", false),
        ("data_dir", "data_dir: ./elsewhere", true),
        ("admin_token_env", "admin_token_env: OTHER_TOKEN", false),
        ("admin_token_file", "admin_token_file: /run/secrets/token", false),
        ("admin_tokens", "admin_tokens: [{ name: alice, token_env: ALICE_TOKEN }]", false),
        ("history_limit", "history_limit: 5", false),
        ("store", "store: file", true),
        ("access_log", "access_log: true", true),
        ("resolve_cache_bytes", "resolve_cache_bytes: 0", false),
        ("redirect_allow", "redirect_allow: [example.com]", false),
        ("redirect_allow_http", "redirect_allow_http: true", false),
        ("drain_seconds", "drain_seconds: 1", true),
        ("shutdown_grace_seconds", "shutdown_grace_seconds: 1", true),
        ("metrics_route_series", "metrics_route_series: 7", true),
        ("access_log_query", "access_log_query: true", true),
        ("log_format", "log_format: json", true),
        ("cors_allowed_origins", "cors_allowed_origins: [\"*\"]", false),
        ("console", "console: { enabled: true }", false),
        ("traffic_sample", "traffic_sample: { urls: 5 }", true),
        ("analytics.enabled", "analytics: { enabled: false }", true),
        ("analytics.bucket", "analytics: { bucket: day }", true),
        ("analytics.flush_seconds", "analytics: { flush_seconds: 30 }", true),
        ("analytics.retention_days", "analytics: { retention_days: 7 }", true),
        ("analytics.orphans_per_bucket", "analytics: { orphans_per_bucket: 5 }", true),
    ]

    /// Start-only keys a change must set beside its own (admin_tls needs admin_listen), reported with it.
    static let companions: [String: [String]] = ["admin_tls": ["admin_listen"]]

    /// The keys a reload of `change` reports as needing a restart.
    static func reported(_ change: (key: String, yaml: String, atStart: Bool)) -> [String] {
        change.atStart ? (companions[change.key] ?? []) + [change.key] : []
    }

    /// Every declared key by its dotted name.
    static var declaredKeys: [String] {
        ServerSettings.keys.flatMap { key in
            switch key.name {
            case "limits": ServerSettings.Limits.keys.map { "limits." + $0.name }
            case "analytics": ServerSettings.AnalyticsSettings.keys.map { "analytics." + $0.name }
            default: [key.name]
            }
        }
    }

    static func settings(_ yaml: String) throws -> ServerSettings {
        try ConfigDirectory.decodeYAML(ServerSettings.self, from: yaml + "\n")
    }

    @Test("every declared key has a change here, and nothing else does")
    func everyKeyIsCovered() {
        #expect(Self.changes.map(\.key) == Self.declaredKeys)
    }

    @Test("each key decodes into its setting, and exactly the start-only ones are reported as needing a restart")
    func startOnlyChanges() throws {
        let defaults = ServerSettings()
        for change in Self.changes {
            let changed = try Self.settings(change.yaml)
            #expect(changed != defaults, "\(change.key) did not change anything")
            #expect(changed.startOnlyChanges(since: defaults) == Self.reported(change), "\(change.key)")
            #expect(defaults.startOnlyChanges(since: changed) == Self.reported(change), "\(change.key)")
        }
    }

    @Test("an unknown key is refused, naming every declared key")
    func unknownKeys() {
        #expect {
            _ = try Self.settings("nope: 1")
        } throws: { error in
            DecodingErrorDescription.describe(error)
                == "nope: unknown key 'nope' (allowed keys: listen, admin_listen, tls, admin_tls, schemes, domains, fallback, threads, limits, apps, "
                + "public_url, link_preview, data_dir, admin_token_env, admin_token_file, admin_tokens, history_limit, store, access_log, resolve_cache_bytes, "
                + "redirect_allow, redirect_allow_http, drain_seconds, shutdown_grace_seconds, metrics_route_series, "
                + "access_log_query, log_format, cors_allowed_origins, console, traffic_sample, analytics)"
        }
        #expect {
            _ = try Self.settings("limits: { max_url: 1 }")
        } throws: { error in
            DecodingErrorDescription.describe(error)
                == "limits.max_url: unknown key 'max_url' (allowed keys: max_url_bytes, max_body_bytes, max_admin_rules, "
                + "max_routes, connection_timeout_seconds, max_connections, max_connections_per_client, request_timeout_seconds)"
        }
    }

    @Test(
        "a refused value is named at its key, as before",
        arguments: [
            ("history_limit: 0", "history_limit: 'history_limit' must be between 1 and 10000"),
            ("threads: 300", "threads: 'threads' must be between 1 and 256"),
            (
                "resolve_cache_bytes: -1",
                "resolve_cache_bytes: 'resolve_cache_bytes' must be between 0 (no cache) and 17179869184 (16 GiB)"
            ),
            ("drain_seconds: 3601", "drain_seconds: 'drain_seconds' must be between 0 and 3600 seconds"),
            ("shutdown_grace_seconds: -1", "shutdown_grace_seconds: 'shutdown_grace_seconds' must be between 0 and 3600 seconds"),
            ("metrics_route_series: 10001", "metrics_route_series: 'metrics_route_series' must be between 0 and 10000"),
            ("limits: { max_routes: 0 }", "limits.max_routes: 'max_routes' must be a positive number"),
            ("schemes: [shopapp, HTTPS]", "schemes: 'https' is not a custom scheme; list web hosts under 'domains'"),
            (
                "admin_tokens: [{ name: a, token_env: A }, { name: a, token_env: B }]",
                "admin_tokens: admin_tokens: the name 'a' is used twice ('admin' is the token of admin_token_env)"
            ),
            (
                "cors_allowed_origins: [\"https://x.example/path\"]",
                "cors_allowed_origins: cors_allowed_origins: 'https://x.example/path' is not an origin (scheme://host[:port], "
                    + "no path) or '*'"
            ),
        ])
    func refusedValues(yaml: String, message: String) {
        #expect {
            _ = try Self.settings(yaml)
        } throws: { error in
            DecodingErrorDescription.describe(error) == message
        }
    }

    @Test("lists of hosts and schemes are kept lowercased")
    func normalized() throws {
        let settings = try Self.settings("schemes: [ShopApp]\ndomains: [Example.COM]\nredirect_allow: [WWW.Example.com]")
        #expect(settings.schemes == ["shopapp"] && settings.domains == ["example.com"] && settings.redirectAllow == ["www.example.com"])
    }

    @Test("a reload that changes a start-only key reports it in /admin/status")
    func reloadReportsEachStartOnlyKey() async throws {
        let config = try TestConfig.demo()
        let server = try await InProcessServer(config: config)
        let client = try server.client()
        let original = try config.read("switchboard.yaml")
        for change in Self.changes where change.atStart {
            // The key's own line (a top-level key) is replaced; the rest stays as the server started.
            let topLevel = String(change.key.prefix { $0 != "." }) + ":"
            let kept = original.split(separator: "\n").filter { !$0.hasPrefix(topLevel) }
            try config.write("switchboard.yaml", kept.joined(separator: "\n") + "\n" + change.yaml + "\n")
            let reload = try client.admin("POST", "/admin/reload")
            #expect(reload.status == 200, "\(change.key): \(reload.text)")
            let status = try client.admin("GET", "/admin/status").json["lastReload"] as? [String: Any] ?? [:]
            #expect(status["restartRequired"] as? [String] == Self.reported(change), "\(change.key): \(status)")
        }
    }
}
