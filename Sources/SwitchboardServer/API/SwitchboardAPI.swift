import Foundation
import Logging
import SwitchboardHTTP

/// The HTTP API of design.md §5 as one ``EndpointTable``, and the request handler the HTTP server
/// calls: it answers through the table, then records the metrics and the access log.
package struct SwitchboardAPI: Sendable {
    private let table: EndpointTable
    private let context: ServerContext
    private let accessLog: Bool
    private let accessLogQuery: Bool
    /// Makes the `X-Request-Id` of the answers whose request brings none.
    private let requestIDs = RequestIDs()

    /// - Parameters:
    ///   - context: what the endpoints use.
    ///   - accessLog: log one line per request.
    ///   - accessLogQuery: keep query values in the access log (else names only).
    ///   - openAPIDocument: served at `/openapi.yaml`.
    package init(context: ServerContext, accessLog: Bool, accessLogQuery: Bool = false, openAPIDocument: [UInt8]) {
        self.context = context
        self.accessLog = accessLog
        self.accessLogQuery = accessLogQuery
        let resolve = ResolveEndpoint(context: context)
        let open = OpenEndpoint(context: context)
        let wellKnown = WellKnownEndpoint(context: context)
        let metrics = context.metrics
        var table = EndpointTable(authorization: AdminAuthorization(tokens: context.adminTokens, metrics: context.metrics))
        table.add(
            "GET", ResolveEndpoint.path,
            Endpoint(ResolveEndpoint.name, malformedQueryCode: "invalid_url", checksQuery: true, writing: resolve.get))
        table.add("POST", "/resolve", Endpoint("resolve_batch", malformedQueryCode: "invalid_url", handle: resolve.post))
        table.add("GET", "/open", Endpoint("open", handle: open.get))
        table.add("GET", "/qr", Endpoint("qr", handle: QREndpoint().get))
        table.add("GET", "/.well-known/apple-app-site-association", Endpoint("aasa") { wellKnown.appleAppSiteAssociation($0) })
        table.add("GET", "/.well-known/assetlinks.json", Endpoint("assetlinks") { wellKnown.assetLinks($0) })
        let health = HealthEndpoints(readiness: context.readiness)
        table.add("GET", "/healthz", Endpoint("healthz") { _ in health.healthz() })
        table.add("GET", "/livez", Endpoint("livez") { _ in health.livez() })
        table.add("GET", "/readyz", Endpoint("readyz") { _ in health.readyz() })
        table.add(
            "GET", "/metrics",
            Endpoint("metrics", audience: .operators) { _ in
                var text = metrics.render()
                context.trafficSample.renderMetrics(into: &text)
                context.analytics?.renderMetrics(into: &text)
                return .text(text, contentType: "text/plain; version=0.0.4; charset=utf-8")
            })
        table.add(
            "GET", "/openapi.yaml",
            Endpoint("openapi", audience: .operators) { _ in
                HTTPResponse(status: 200, headers: [("Content-Type", "application/yaml; charset=utf-8")], body: openAPIDocument)
            })
        AdminEndpoints.register(into: &table, context: context)
        let console = ConsoleEndpoint(context: context)
        table.add("GET", "/console", Endpoint("console", audience: .operators, handle: console.page))
        table.add("GET", "/console/{id}", Endpoint("console", audience: .operators, handle: console.file))
        self.table = table
    }

    /// Answers one request; called concurrently from the HTTP servers' threads. Every answer
    /// carries `X-Request-Id` (``RequestIDs``), which the access log records with the trace id
    /// of a W3C `traceparent` (``TraceParent``).
    ///
    /// - Parameters:
    ///   - body: the body buffer the HTTP server lent the request's thread (empty): an endpoint
    ///     may write its body there and answer with it (``HTTPServer/Handler``).
    ///   - scope: the endpoints the listener that read the request answers.
    package func handle(_ request: HTTPRequest, body: inout [UInt8], scope: ListenerScope = .all) -> HTTPResponse {
        let started = MonotonicClock.seconds()
        // One read of the snapshot per request: every reader of it retains the same object, and
        // its reference count is shared by every worker thread.
        let snapshot = context.snapshot
        var endpoint: String
        var response: HTTPResponse
        if request.method != "OPTIONS", snapshot.config.settings.corsAllowedOrigins.isEmpty {
            // Without origins to allow and without a preflight, no answer gets a CORS header.
            (endpoint, response) = table.respond(to: request, snapshot: snapshot, scope: scope, body: &body)
        } else {
            let cors = CORSPolicy(allowedOrigins: snapshot.config.settings.corsAllowedOrigins)
            (endpoint, response) =
                cors.preflight(request).map { ("cors_preflight", $0) }
                ?? table.respond(to: request, snapshot: snapshot, scope: scope, body: &body)
            response = cors.decorate(response, for: request)
        }
        let requestID = requestIDs.id(for: request)
        // In the response's own slot: appending to the endpoint's header array would grow it.
        response.requestID = requestID
        let seconds = MonotonicClock.seconds() - started
        context.metrics.recordRequest(endpoint: endpoint, status: response.status, seconds: seconds)
        if accessLog {
            context.logger.info(
                "request",
                metadata: accessLogMetadata(
                    request, status: response.status, endpoint: endpoint, seconds: seconds, requestID: requestID))
        }
        return response
    }

    /// The fields of one access log line, named after OpenTelemetry's HTTP conventions where
    /// they have a name: `http.request.method`, `url.path`, `url.query` (names only unless
    /// `access_log_query`), `http.response.status_code`, `client.address`, then `endpoint`,
    /// `duration_us`, `request_id` and, when the request carried a valid `traceparent`, `trace_id`.
    private func accessLogMetadata(
        _ request: HTTPRequest, status: Int, endpoint: String, seconds: Double, requestID: String
    ) -> Logger.Metadata {
        var metadata: Logger.Metadata = [
            "http.request.method": "\(request.method)", "url.path": "\(request.path)",
            "http.response.status_code": "\(status)", "endpoint": "\(endpoint)", "duration_us": "\(Int(seconds * 1e6))",
            "request_id": "\(requestID)",
        ]
        if let query = request.query {
            metadata["url.query"] = "\(accessLogQuery ? query : Self.queryNames(query))"
        }
        if let address = request.remoteAddress { metadata["client.address"] = "\(address)" }
        if let traceID = TraceParent.traceID(of: request) { metadata["trace_id"] = "\(traceID)" }
        return metadata
    }

    /// Answers one request with a body buffer of its own (tests, tools).
    package func handle(_ request: HTTPRequest) -> HTTPResponse {
        var body: [UInt8] = []
        return handle(request, body: &body)
    }

    /// Whether `request` runs off the HTTP server's worker threads: every method but `GET` and
    /// `HEAD`, since reloads build a whole snapshot and admin writes persist with fsync or go to
    /// PostgreSQL. Reads stay on the worker thread, which is the fast path.
    package static func runsOffWorker(_ request: HTTPRequest) -> Bool {
        request.method != "GET" && request.method != "HEAD"
    }

    /// A query with each value replaced by `*` (`url=*&platform=*`): deep links can carry
    /// tokens and personal data, which do not belong in logs.
    static func queryNames(_ query: String) -> String {
        guard !query.isEmpty else { return "" }
        return query.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first.map { "\($0)=*" } ?? "*"
        }.joined(separator: "&")
    }

    /// The response for a request the HTTP layer refused by itself: the same JSON error body.
    package static func refusalResponse(_ refusal: HTTPRefusal) -> HTTPResponse {
        APIError(refusal).response
    }
}
