import SwitchboardHTTP

/// `GET /livez`, `GET /readyz` and `GET /healthz`: what orchestrators probe (docs/operations.md
/// "Kubernetes").
///
/// - `/livez`: the process serves HTTP; `200 {"status":"ok","version":…,"revision":…}`, never anything else
///   (a liveness probe that fails restarts the container, so it checks nothing that a restart
///   would not fix).
/// - `/readyz`: whether to send traffic: `200 {"status":"ready",…}` once the config and the
///   admin state are loaded and every service runs, `503 {"status":"starting"|"draining",…}`
///   before that and from the start of a graceful shutdown.
/// - `/healthz`: `200 {"status":"ok"}`, kept for existing health checks.
struct HealthEndpoints: Sendable {
    let readiness: Readiness

    func livez() -> HTTPResponse {
        .json(#"{"status":"ok","version":"\#(SwitchboardVersion.current)","revision":"\#(SwitchboardVersion.revision)"}"#)
    }

    func readyz() -> HTTPResponse {
        switch readiness.current {
        case .ready:
            .json(#"{"status":"ready"}"#)
        case .starting:
            .json(status: 503, #"{"status":"starting"}"#, headers: [("Retry-After", "1")])
        case .draining:
            .json(status: 503, #"{"status":"draining"}"#)
        }
    }

    func healthz() -> HTTPResponse {
        .json(#"{"status":"ok"}"#)
    }
}
