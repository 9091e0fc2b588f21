import Foundation
import SwitchboardCore

/// `GET /resolve?url=U`: 200 with the route, 404 when nothing matched, 400 for a missing or
/// malformed `url`. `POST /resolve` with `{"urls": [...]}` resolves up to
/// ``maximumBatchSize`` URLs in one call.
struct ResolveEndpoint {
    /// The most URLs one `POST /resolve` may carry; more is a `413 too_many_urls`.
    static let maximumBatchSize = 100

    let service: SwitchboardService

    func get(_ request: HTTPRequest) -> HTTPResponse {
        let snapshot = service.snapshot
        let cacheKey = snapshot.resolveCache.key(for: request)
        if let cacheKey, let cached = snapshot.resolveCache.answer(for: cacheKey) {
            service.metrics.recordResolution(
                routeID: cached.routeID, firedRuleIDs: cached.firedRuleIDs, ruleErrors: 0, limitHits: 0, cache: .hit)
            var response = HTTPResponse.json(status: cached.status, cached.body)
            response.reuseSlot = cached.reuseSlot
            return response
        }
        let items: [QueryItem]
        do {
            items = try ParsedURL.queryItems(ofRawQuery: request.query ?? "")
        } catch {
            return .error(status: 400, code: "invalid_url", message: "the query string is malformed: \(error.description)")
        }
        let urls = items.filter { $0.name == "url" }
        guard urls.count == 1, let url = urls.first?.value, !url.isEmpty else {
            let message =
                urls.count > 1
                ? "give the url parameter once"
                : "missing url parameter: GET /resolve?url=<percent-encoded URL>"
            return .error(status: 400, code: "invalid_url", message: message)
        }
        let explain: Bool
        switch Self.explainFlag(items) {
        case .success(let flag): explain = flag
        case .failure(let refusal): return refusal.response
        }
        let context = RequestContext(request: request, query: items, now: service.clock())
        guard !explain else {
            let answer = resolve(url, with: snapshot, context: context, explain: true)
            return .json(status: answer.status, Self.bytes(answer.body))
        }
        do {
            let (resolution, outcome) = try resolveRecording(
                url, with: snapshot, context: context, cache: cacheKey == nil ? nil : .miss)
            let status = resolution.matched ? 200 : 404
            let body = resolution.jsonBytes
            // A rule that failed or hit a PCRE2 limit is counted on every request: not cached.
            if let cacheKey, outcome.errors.isEmpty, outcome.limitHits.isEmpty {
                let answer = ResolveCache.Answer(
                    status: status, body: body, routeID: resolution.match?.route.id, firedRuleIDs: resolution.ruleIDs)
                snapshot.resolveCache.store(answer, for: cacheKey)
            }
            return .json(status: status, body)
        } catch {
            return .error(status: 400, code: error.code, message: error.message)
        }
    }

    /// Why `explain` was refused.
    struct InvalidParameter: Error {
        let response: HTTPResponse
    }

    /// `explain=1|true` adds a trace, `0|false` (or none) does not; anything else is a 400.
    static func explainFlag(_ items: [QueryItem]) -> Result<Bool, InvalidParameter> {
        guard let value = items.last(where: { $0.name == "explain" })?.value else { return .success(false) }
        switch value {
        case "1", "true": return .success(true)
        case "0", "false": return .success(false)
        default:
            return .failure(
                InvalidParameter(
                    response: .error(
                        status: 400, code: "invalid_parameter",
                        message: "explain must be 1, true, 0 or false, not '\(value)'")))
        }
    }

    /// `POST /resolve`: every URL of the batch against one snapshot, each result exactly the
    /// `GET /resolve` body plus its own `status`.
    func post(_ request: HTTPRequest) -> HTTPResponse {
        let urls: [String]
        switch BatchRequest.decode(request.body) {
        case .success(let decoded):
            urls = decoded
        case .failure(let refusal):
            return .error(status: 400, code: "invalid_body", message: refusal.message)
        }
        guard !urls.isEmpty else {
            return .error(status: 400, code: "invalid_body", message: "'urls' is empty; give 1 to \(Self.maximumBatchSize) URLs")
        }
        guard urls.count <= Self.maximumBatchSize else {
            return .error(
                status: 413, code: "too_many_urls",
                message: "\(urls.count) URLs in one batch; the limit is \(Self.maximumBatchSize): split the batch")
        }
        let snapshot = service.snapshot
        let query = (try? ParsedURL.queryItems(ofRawQuery: request.query ?? "")) ?? []
        let explain: Bool
        switch Self.explainFlag(query) {
        case .success(let flag): explain = flag
        case .failure(let refusal): return refusal.response
        }
        let context = RequestContext(request: request, query: query, now: service.clock())
        let results: [JSONValue] = urls.map { url in
            let answer = resolve(url, with: snapshot, context: context, explain: explain)
            guard case .object(var members) = answer.body else { return answer.body }
            members.append(("status", .number(Double(answer.status))))
            return .object(members)
        }
        return .json(Self.bytes(.object([("results", .array(results))])))
    }

    /// The status and body `GET /resolve` answers for `url`, recording metrics.
    private func resolve(
        _ url: String, with snapshot: Snapshot, context: RequestContext, explain: Bool = false
    ) -> (status: Int, body: JSONValue) {
        guard !url.isEmpty else {
            return (400, Self.errorBody(code: "invalid_url", message: "the URL is empty"))
        }
        do {
            let resolution = try resolveRecording(url, with: snapshot, context: context, cache: nil).0
            let status = resolution.matched ? 200 : 404
            let json = resolution.json
            guard explain, case .object(var members) = json,
                let trace = try? snapshot.resolver.explain(url, context: context).1
            else {
                return (status, json)
            }
            members.append(("trace", trace.json))
            return (status, .object(members))
        } catch {
            return (400, Self.errorBody(code: error.code, message: error.message))
        }
    }

    /// Resolves `url` and records the resolution in the metrics (with how the cache went).
    private func resolveRecording(
        _ url: String, with snapshot: Snapshot, context: RequestContext, cache: Metrics.ResolveCacheResult?
    ) throws(ResolveError) -> (Resolution, RewriteOutcome) {
        let (resolution, outcome) = try snapshot.resolver.resolveWithOutcome(url, context: context)
        service.metrics.recordResolution(
            routeID: resolution.match?.route.id, firedRuleIDs: resolution.ruleIDs, ruleErrors: outcome.errors.count,
            limitHits: outcome.limitHits.count, cache: cache)
        return (resolution, outcome)
    }

    /// Compact JSON bytes of `value`.
    private static func bytes(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter(capacity: 512)
        writer.write(value)
        return writer.bytes
    }

    /// The error shape of DESIGN §5 as a value.
    private static func errorBody(code: String, message: String) -> JSONValue {
        .object([("error", .object([("code", .string(code)), ("message", .string(message))]))])
    }
}

/// The body of `POST /resolve`: exactly `{"urls": ["…", …]}`.
enum BatchRequest {
    /// Why a body was refused.
    struct Refusal: Error {
        let message: String
    }

    /// The URLs of a batch body, in order.
    static func decode(_ body: [UInt8]) -> Result<[String], Refusal> {
        guard !body.isEmpty else {
            return .failure(Refusal(message: #"the body is empty; send {"urls": ["<URL>", …]}"#))
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(body), options: [])
        } catch {
            return .failure(Refusal(message: "the body is not valid JSON"))
        }
        guard let dictionary = object as? [String: Any] else {
            return .failure(Refusal(message: #"the body must be an object: {"urls": ["<URL>", …]}"#))
        }
        let unknown = dictionary.keys.filter { $0 != "urls" }.sorted()
        guard unknown.isEmpty else {
            return .failure(Refusal(message: "unknown key '\(unknown[0])' (allowed keys: urls)"))
        }
        guard let list = dictionary["urls"] else {
            return .failure(Refusal(message: #"missing 'urls': send {"urls": ["<URL>", …]}"#))
        }
        guard let items = list as? [Any] else {
            return .failure(Refusal(message: "'urls' must be an array of strings"))
        }
        var urls: [String] = []
        urls.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            // NSNumber bridges to String on some platforms only through `as?` of NSString; be strict.
            guard let url = item as? String, !(item is NSNumber) else {
                return .failure(Refusal(message: "'urls'[\(index)] must be a string"))
            }
            urls.append(url)
        }
        return .success(urls)
    }
}
