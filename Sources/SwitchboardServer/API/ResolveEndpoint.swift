import SwitchboardCore

/// `GET /resolve?url=U`: 200 with the route, 404 when nothing matched, 400 for a missing or
/// malformed `url`.
struct ResolveEndpoint {
    let service: SwitchboardService

    func get(_ request: HTTPRequest) -> HTTPResponse {
        let items: [QueryItem]
        do {
            items = try ParsedURL.queryItems(ofRawQuery: request.query ?? "")
        } catch {
            return .error(status: 400, code: "invalid_url", message: "the query string is malformed: \(error.description)")
        }
        let urls = items.filter { $0.name == "url" }
        guard urls.count == 1, let url = urls.first?.value, !url.isEmpty else {
            let message = urls.count > 1
                ? "give the url parameter once"
                : "missing url parameter: GET /resolve?url=<percent-encoded URL>"
            return .error(status: 400, code: "invalid_url", message: message)
        }
        let snapshot = service.snapshot
        do {
            let (resolution, outcome) = try snapshot.resolver.resolveWithOutcome(url)
            service.metrics.recordResolution(
                routeID: resolution.match?.route.id, firedRuleIDs: resolution.ruleIDs,
                ruleErrors: outcome.errors.count, limitHits: outcome.limitHits.count)
            return .json(status: resolution.matched ? 200 : 404, resolution.jsonBytes)
        } catch {
            return .error(status: 400, code: error.code, message: error.message)
        }
    }
}
