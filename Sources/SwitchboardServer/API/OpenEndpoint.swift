import SwitchboardCore
import SwitchboardHTTP

/// `GET /open?url=U`, redirect mode: `302` to the matched route's `webURL`, or to the expanded
/// fallback of an unmatched URL, with `Cache-Control: no-store` — only when the snapshot's
/// ``RedirectPolicy`` allows the location. Anything else (no such target, a target not
/// allowed, bad input) is `404 no_redirect`; the input URL is never echoed. The `Location` is a
/// URI: non-ASCII bytes of the target are percent-encoded.
struct OpenEndpoint: Sendable {
    let context: ServerContext

    func get(_ request: APIRequest) throws(APIError) -> HTTPResponse {
        let urls = request.query.values(named: "url")
        guard urls.count == 1, let url = urls.first, !url.isEmpty else {
            throw Self.noRedirect("give the url parameter once: GET /open?url=<percent-encoded URL>")
        }
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
                url: url, context: requestContext, routeID: resolved.summary.routeID, firedRuleIDs: resolved.ruleIDs,
                status: resolved.summary.status)
            resolution = resolved
        } catch {
            context.analytics?.record(url: url, context: requestContext, routeID: nil, firedRuleIDs: [], status: 400)
            throw Self.noRedirect("the url is not a valid URL")
        }
        let candidate: String
        if resolution.matched {
            guard let webURL = resolution.webURL else {
                throw Self.noRedirect("the matched route has no web URL")
            }
            candidate = webURL
        } else {
            guard let fallback = resolution.fallback else {
                throw Self.noRedirect("no route matched and no fallback is configured")
            }
            candidate = fallback
        }
        guard let location = snapshot.redirectPolicy.allowedLocation(candidate) else {
            throw Self.noRedirect("the redirect target is not allowed by redirect_allow")
        }
        return HTTPResponse(
            status: 302,
            headers: [("Location", location.uriString), ("Cache-Control", "no-store"), ("Content-Type", HTTPResponse.jsonContentType)],
            body: Array(#"{"redirect":true}"#.utf8))
    }

    /// The 404 of redirect mode; the message never contains the input.
    private static func noRedirect(_ message: String) -> APIError {
        APIError(status: 404, code: "no_redirect", message: message, headers: [("Cache-Control", "no-store")])
    }
}
