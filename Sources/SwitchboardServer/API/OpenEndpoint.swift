import SwitchboardCore
import SwitchboardHTTP

/// `GET /open?url=U[&platform=P]`, redirect mode by platform (design.md §11): the platform is
/// decided once (``OpenPlatform``: `platform=`, else the `User-Agent`), the link resolved
/// once, and ``OpenDecision`` says where it goes: a `302` (to the route's page, an Android
/// intent, a store, a per-route destination or the fallback) with `Cache-Control: no-store`,
/// the preview page for a link-preview crawler, or `404 no_redirect`. Every destination passes
/// ``RedirectPolicy``; the input URL is never echoed unescaped. The `Location` is a URI:
/// non-ASCII bytes of the target are percent-encoded.
struct OpenEndpoint: Sendable {
    let context: ServerContext

    func get(_ request: APIRequest) throws(APIError) -> HTTPResponse {
        let urls = request.query.values(named: "url")
        guard urls.count == 1, let url = urls.first, !url.isEmpty else {
            throw Self.noRedirect("give the url parameter once: GET /open?url=<percent-encoded URL>")
        }
        let platform = OpenPlatform(parameter: request.query.first(named: "platform"), userAgent: request.http.header("User-Agent"))
        let snapshot = request.snapshot
        let resolution: Resolution
        let requestContext = RequestContext(request: request.http, query: request.query, now: context.clock())
        do {
            let resolved = try snapshot.resolver.resolve(url, context: requestContext)
            context.metrics.recordResolution(
                routeID: resolved.match?.route.id, firedRuleIDs: resolved.ruleIDs,
                ruleErrors: resolved.summary.ruleErrorCount, limitHits: resolved.summary.ruleLimitHitCount,
                constraintLimitHits: resolved.constraintLimitHits)
            context.analytics?.record(
                routeID: resolved.summary.routeID, firedRuleIDs: resolved.ruleIDs, status: resolved.summary.status,
                asker: requestContext, link: .url(url))
            resolution = resolved
        } catch {
            context.analytics?.record(
                routeID: nil, firedRuleIDs: [], status: 400, asker: requestContext, link: .url(url))
            throw Self.noRedirect("the url is not a valid URL")
        }
        let decision = OpenDecision.decide(
            resolution, platform: platform, settings: snapshot.config.settings, policy: snapshot.redirectPolicy)
        switch decision.answer {
        case .redirect(let location, _):
            return HTTPResponse(
                status: 302,
                headers: [("Location", location), ("Cache-Control", "no-store"), ("Content-Type", HTTPResponse.jsonContentType)],
                body: Array(#"{"redirect":true}"#.utf8))
        case .preview(let page):
            return HTTPResponse(
                status: 200,
                headers: [
                    ("Content-Type", "text/html; charset=utf-8"), ("Content-Security-Policy", LinkPreviewPage.contentSecurityPolicy),
                    ("X-Content-Type-Options", "nosniff"), ("Cache-Control", "no-store"),
                ],
                body: Array(page.html.utf8))
        case .refused(let message):
            throw Self.noRedirect(message)
        }
    }

    /// The 404 of redirect mode; the message never contains the input.
    private static func noRedirect(_ message: String) -> APIError {
        APIError(status: 404, code: "no_redirect", message: message, headers: [("Cache-Control", "no-store")])
    }
}
