extension ServerSettings {
    /// The settings applied only when the server starts (the listener, its threads and
    /// limits, where state comes from, logging, shutdown): a reload that changes one
    /// says "restart to apply" instead of silently keeping the old value.
    static let startOnly: [(key: String, value: @Sendable (ServerSettings) -> AnyHashable)] = [
        ("listen", { $0.listen }),
        ("threads", { $0.threads }),
        ("data_dir", { $0.dataDir }),
        ("store", { $0.store }),
        ("access_log", { $0.accessLog }),
        ("access_log_query", { $0.accessLogQuery }),
        ("log_format", { $0.logFormat }),
        ("drain_seconds", { $0.drainSeconds }),
        ("shutdown_grace_seconds", { $0.shutdownGraceSeconds }),
        ("metrics_route_series", { $0.metricsRouteSeries }),
        ("traffic_sample", { $0.trafficSample }),
        ("limits.max_url_bytes", { $0.limits.maxURLBytes }),
        ("limits.max_body_bytes", { $0.limits.maxBodyBytes }),
        ("limits.connection_timeout_seconds", { $0.limits.connectionTimeoutSeconds }),
        ("limits.max_connections", { $0.limits.maxConnections }),
        ("limits.max_connections_per_client", { $0.limits.maxConnectionsPerClient }),
        ("limits.request_timeout_seconds", { $0.limits.requestTimeoutSeconds }),
    ]

    /// The start-only keys whose value in `self` differs from the one the server started with.
    func startOnlyChanges(since start: ServerSettings) -> [String] {
        Self.startOnly.filter { $0.value(self) != $0.value(start) }.map(\.key)
    }
}
