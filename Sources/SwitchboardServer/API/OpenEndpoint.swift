import SwitchboardCore

/// `GET /open?url=U`, redirect mode: `302` to the matched route's `webURL`, or to the expanded
/// fallback of an unmatched URL, with `Cache-Control: no-store` — only when the snapshot's
/// ``RedirectPolicy`` allows the location. Anything else (no such target, a target not
/// allowed, bad input) is `404 no_redirect`; the input URL is never echoed.
struct OpenEndpoint {
    let service: SwitchboardService

    func get(_ request: HTTPRequest) -> HTTPResponse {
        guard let items = try? ParsedURL.queryItems(ofRawQuery: request.query ?? "") else {
            return Self.noRedirect("the query string is malformed")
        }
        let urls = items.filter { $0.name == "url" }
        guard urls.count == 1, let url = urls.first?.value, !url.isEmpty else {
            return Self.noRedirect("give the url parameter once: GET /open?url=<percent-encoded URL>")
        }
        let snapshot = service.snapshot
        let resolution: Resolution
        do {
            let context = RequestContext(request: request, query: items, now: service.clock())
            let (resolved, outcome) = try snapshot.resolver.resolveWithOutcome(url, context: context)
            service.metrics.recordResolution(
                routeID: resolved.match?.route.id, firedRuleIDs: resolved.ruleIDs,
                ruleErrors: outcome.errors.count, limitHits: outcome.limitHits.count)
            resolution = resolved
        } catch {
            return Self.noRedirect("the url is not a valid URL")
        }
        let candidate: String
        if resolution.matched {
            guard let webURL = resolution.webURL else {
                return Self.noRedirect("the matched route has no web URL")
            }
            candidate = webURL
        } else {
            guard let fallback = resolution.fallback else {
                return Self.noRedirect("no route matched and no fallback is configured")
            }
            candidate = fallback
        }
        guard let location = snapshot.redirectPolicy.allowedLocation(candidate) else {
            return Self.noRedirect("the redirect target is not allowed by redirect_allow")
        }
        return HTTPResponse(
            status: 302,
            headers: [("Location", location.string), ("Cache-Control", "no-store"), ("Content-Type", HTTPResponse.jsonContentType)],
            body: Array(#"{"redirect":true}"#.utf8))
    }

    /// The 404 of redirect mode; the message never contains the input.
    private static func noRedirect(_ message: String) -> HTTPResponse {
        .error(status: 404, code: "no_redirect", message: message, headers: [("Cache-Control", "no-store")])
    }
}
