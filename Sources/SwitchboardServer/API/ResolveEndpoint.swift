import SwitchboardCore
import SwitchboardHTTP

/// `GET /resolve?url=U`: 200 with the route, 404 when nothing matched, 400 for a missing or
/// malformed `url`. `POST /resolve` with `{"urls": [...]}` resolves up to
/// ``maximumBatchSize`` URLs in one call.
struct ResolveEndpoint: Sendable {
    /// The path of both methods.
    static let path = "/resolve"
    /// The metrics label of `GET /resolve`.
    static let name = "resolve"
    /// The most URLs one `POST /resolve` may carry; more is a `413 too_many_urls`.
    static let maximumBatchSize = 100

    let context: ServerContext

    /// `GET /resolve`: the snapshot's cache first (probed once, before anything of the query
    /// is read), then one pass over the query, and the body written into `body`, the buffer
    /// the HTTP server lent the request's thread.
    func get(_ request: APIRequest, body: inout [UInt8]) throws(APIError) -> HTTPResponse {
        let snapshot = request.snapshot
        let cacheKey = snapshot.resolveCache.key(for: request.http)
        if let cacheKey, let cached = snapshot.resolveCache.answer(for: cacheKey) {
            context.trafficSample.offer(request.http)
            context.metrics.recordResolution(
                routeID: cached.routeID, firedRuleIDs: cached.firedRuleIDs, ruleErrors: 0, limitHits: 0, cache: .hit)
            context.analytics?.record(
                routeID: cached.routeID, firedRuleIDs: cached.firedRuleIDs, status: cached.status,
                asker: askingApp(request, namesTheApp: Self.mayNameTheApp(request.query), resolved: nil),
                link: .query(request.http.query))
            return .json(status: cached.status, cached.body)
        }
        // Checked after the cache (a cached answer was given to this very query, checked then),
        // and for a lone `url` by decoding its value below, which checks it.
        let query = request.query.withRawBytes(ResolveQuery.init)
        if !query.isURLAlone { try request.checkQuery() }
        guard query.urlCount == 1, let urlRange = query.url, !urlRange.isEmpty else {
            let message =
                query.urlCount > 1
                ? "give the url parameter once"
                : "missing url parameter: GET /resolve?url=<percent-encoded URL>"
            throw APIError.badRequest("invalid_url", message)
        }
        // The asking app's parameters count once, like every parameter of an endpoint.
        if query.namesTheApp {
            for name in ResolveQuery.appParameters { _ = try request.queryValue(name) }
        }
        if query.asksToExplain, try Self.explainFlag(request) {
            let url = request.query.withRawBytes { QueryParameters.decoded(UnsafeBufferPointer(rebasing: $0[urlRange])) }
            let requestContext = RequestContext(request: request.http, query: request.query, now: context.clock())
            let answer = resolve(url, with: snapshot, context: requestContext, explain: true)
            return .json(status: answer.status, answer.body.jsonBytes)
        }
        let requestContext = self.requestContext(request, query: query, dependence: snapshot.contextDependence)
        let readTheApp = snapshot.contextDependence.app ? requestContext : nil
        context.trafficSample.offer(request.http)
        body.reserveCapacity(Resolver.bodyCapacity)
        // The closures capture the snapshot and the context only: a copy of the request (or of
        // the resolver) would retain each of its strings and arrays on every request.
        let answered = request.query.withRawBytes { bytes -> Result<ResolveSummary, ResolveError>? in
            let encoded = UnsafeBufferPointer(rebasing: bytes[urlRange])
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: encoded.count) { decoded in
                guard let count = PercentEncoding.decode(encoded, into: decoded, plusAsSpace: true) else { return nil }
                var writer = JSONWriter(appendingTo: &body)
                defer { writer.finish(into: &body) }
                return Result { () throws(ResolveError) -> ResolveSummary in
                    try snapshot.resolver.resolve(
                        utf8: UnsafeBufferPointer(rebasing: decoded[..<count]), context: requestContext,
                        appendingJSONTo: &writer)
                }
            }
        }
        let summary: ResolveSummary
        switch answered {
        case nil:
            // The value does not decode: the answer the whole check gives, saying where.
            try request.checkQuery()
            throw APIError.badRequest("invalid_url", "the query string is malformed")
        case .failure(let error)?:
            context.analytics?.record(
                routeID: nil, firedRuleIDs: [], status: 400,
                asker: askingApp(request, namesTheApp: query.namesTheApp, resolved: readTheApp), link: .query(request.http.query))
            throw APIError.badRequest(error.code, error.message)
        case .success(let resolved)?:
            summary = resolved
        }
        record(summary, body: body, cacheKey: cacheKey, snapshot: snapshot)
        context.analytics?.record(
            routeID: summary.routeID, firedRuleIDs: summary.firedRuleIDs, status: summary.status,
            asker: askingApp(request, namesTheApp: query.namesTheApp, resolved: readTheApp), link: .query(request.http.query))
        return .json(status: summary.status, body)
    }

    /// What the resolve may look at besides the URL, and only that: the asking app's headers
    /// and parameters, and the clock, are read only when the snapshot's answers depend on
    /// them (a scan of the headers and a clock read on every request would go to waste).
    private func requestContext(
        _ request: APIRequest, query: ResolveQuery, dependence: Resolver.ContextDependence
    ) -> RequestContext {
        let now = dependence.clock ? context.clock() : nil
        guard dependence.app else { return RequestContext(now: now) }
        return RequestContext(request: request.http, query: query.namesTheApp ? request.query : QueryParameters(), now: now)
    }

    /// The asking app as analytics count it: `resolved` when the resolve read the app already
    /// (the snapshot's answers depend on it), else read now from the request's headers, and
    /// from its parameters only when the query may name the app.
    private func askingApp(_ request: APIRequest, namesTheApp: Bool, resolved: RequestContext?) -> RequestContext {
        if let resolved { return resolved }
        return RequestContext(platformAndVersionOf: request.http, query: namesTheApp ? request.query : nil)
    }

    /// Whether `query` has more than one parameter, and so may name the app: a cached answer
    /// skips the scan of the query, and the common one is a lone `url`.
    private static func mayNameTheApp(_ query: QueryParameters) -> Bool {
        query.withRawBytes { ParsedURL.firstOffset(of: UInt8(ascii: "&"), in: $0, from: 0, before: $0.count) < $0.count }
    }

    /// Counts a fresh `GET /resolve` answer in the metrics and keeps `body` in the cache at its
    /// key's second miss (a rule that failed, or a regex that hit a PCRE2 limit, is counted on
    /// every request: not cached).
    private func record(_ summary: ResolveSummary, body: [UInt8], cacheKey: ResolveCache.Key?, snapshot: Snapshot) {
        context.metrics.recordResolution(
            routeID: summary.routeID, firedRuleIDs: summary.firedRuleIDs, ruleErrors: summary.ruleErrorCount,
            limitHits: summary.ruleLimitHitCount, constraintLimitHits: summary.constraintLimitHits,
            cache: cacheKey == nil ? nil : .miss)
        if let cacheKey, summary.isRepeatable, snapshot.resolveCache.admits(cacheKey) {
            let answer = ResolveCache.Answer(
                status: summary.status, body: body, routeID: summary.routeID, firedRuleIDs: summary.firedRuleIDs)
            snapshot.resolveCache.store(answer, for: cacheKey)
        }
    }

    /// `explain=1|true` adds a trace, `0|false` (or none) does not.
    ///
    /// - Throws: ``APIError`` (`400 invalid_parameter`) for any other value.
    static func explainFlag(_ request: APIRequest) throws(APIError) -> Bool {
        guard let value = try request.queryValue("explain") else { return false }
        switch value {
        case "1", "true": return true
        case "0", "false": return false
        default: throw APIError.badRequest("invalid_parameter", "explain must be 1, true, 0 or false, not '\(value)'")
        }
    }

    /// `POST /resolve`: every URL of the batch against one snapshot, each result exactly the
    /// `GET /resolve` body plus its own `status`.
    func post(_ request: APIRequest) throws(APIError) -> HTTPResponse {
        let body = try request.decodeBody(BatchResolveBody.self, describedAs: #"{"urls": ["<URL>" or {"url": …}, …]}"#)
        let urls = body.urls
        guard !urls.isEmpty else {
            throw APIError.badRequest("invalid_body", "'urls' is empty; give 1 to \(Self.maximumBatchSize) URLs")
        }
        guard urls.count <= Self.maximumBatchSize else {
            throw APIError(
                status: 413, code: "too_many_urls",
                message: "\(urls.count) URLs in one batch; the limit is \(Self.maximumBatchSize): split the batch")
        }
        let snapshot = context.snapshot
        let explain = try Self.explainFlag(request)
        let requestContext = RequestContext(request: request.http, query: request.query, now: context.clock())
            .overridden(by: body.context)
        let results: [JSONValue] = urls.map { item in
            let answer = resolve(
                item.url, with: snapshot, context: requestContext.overridden(by: item.context), explain: explain)
            guard case .object(var members) = answer.body else { return answer.body }
            members.append(("status", .number(Double(answer.status))))
            return .object(members)
        }
        return .json(JSONValue.object([("results", .array(results))]).jsonBytes)
    }

    /// The status and body `GET /resolve` answers for `url`, recording metrics (and analytics,
    /// unless it explains).
    private func resolve(
        _ url: String, with snapshot: Snapshot, context requestContext: RequestContext, explain: Bool = false
    ) -> (status: Int, body: JSONValue) {
        guard !url.isEmpty else {
            return (400, APIError.badRequest("invalid_url", "the URL is empty").body)
        }
        do {
            // One pass either way: `explain` is the same resolve, observed.
            let resolution: Resolution
            var trace: ResolutionTrace?
            if explain {
                (resolution, trace) = try snapshot.resolver.explain(url, context: requestContext)
            } else {
                resolution = try snapshot.resolver.resolve(url, context: requestContext)
            }
            let summary = resolution.summary
            context.metrics.recordResolution(
                routeID: summary.routeID, firedRuleIDs: summary.firedRuleIDs, ruleErrors: summary.ruleErrorCount,
                limitHits: summary.ruleLimitHitCount, constraintLimitHits: summary.constraintLimitHits)
            if !explain {
                context.analytics?.record(
                    routeID: summary.routeID, firedRuleIDs: summary.firedRuleIDs, status: summary.status,
                    asker: requestContext, link: .url(url))
            }
            let json = resolution.json
            guard let trace, case .object(var members) = json else { return (summary.status, json) }
            members.append(("trace", trace.json))
            return (summary.status, .object(members))
        } catch {
            if !explain {
                context.analytics?.record(
                    routeID: nil, firedRuleIDs: [], status: 400, asker: requestContext, link: .url(url))
            }
            return (400, APIError.badRequest(error.code, error.message).body)
        }
    }
}

/// The body of `POST /resolve`: `{"urls": [...], "context"?: {...}}`, where each URL is a
/// string or `{"url": "…", "platform"?, "appVersion"?, "device"?, "at"?}`. A context given
/// for the batch applies to every URL, one given with a URL to that URL; either overrides what
/// the request's parameters and headers say.
struct BatchResolveBody: Decodable {
    /// One URL of the batch, with the context of its own, if any.
    struct Item: Decodable {
        let url: String
        let context: BatchContext?

        init(from decoder: any Decoder) throws {
            if let url = try? decoder.singleValueContainer().decode(String.self) {
                self.url = url
                context = nil
                return
            }
            try decoder.rejectUnknownKeys(allowed: ["url"] + BatchContext.CodingKeys.allCases.map(\.rawValue))
            url = try decoder.container(keyedBy: AnyCodingKey.self).decode(String.self, forKey: AnyCodingKey(stringValue: "url"))
            context = try BatchContext(from: decoder)
        }
    }

    let urls: [Item]
    let context: BatchContext?

    enum CodingKeys: String, CodingKey, CaseIterable { case urls, context }

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        urls = try container.decode([Item].self, forKey: .urls)
        context = try container.decodeIfPresent(BatchContext.self, forKey: .context)
    }
}

/// The asking app, as a batch states it: each field given replaces the request's own.
struct BatchContext: Decodable {
    let platform: String?
    let appVersion: String?
    let device: String?
    /// The time of the request (RFC 3339 with an offset), to try time-windowed rules.
    let at: Double?

    enum CodingKeys: String, CodingKey, CaseIterable { case platform, appVersion, device, at }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        platform = try container.decodeIfPresent(String.self, forKey: .platform)
        if let platform, !["ios", "android", "web"].contains(platform.lowercased()) {
            throw DecodingError.dataCorruptedError(
                forKey: .platform, in: container, debugDescription: "platform must be ios, android or web, not '\(platform)'")
        }
        appVersion = try container.decodeIfPresent(String.self, forKey: .appVersion)
        if let appVersion, SemanticVersion(appVersion) == nil {
            throw DecodingError.dataCorruptedError(
                forKey: .appVersion, in: container, debugDescription: "'\(appVersion)' is not a version such as 5.3.0")
        }
        device = try container.decodeIfPresent(String.self, forKey: .device)
        if let text = try container.decodeIfPresent(String.self, forKey: .at) {
            guard let seconds = RequestContext.seconds(rfc3339: text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .at, in: container,
                    debugDescription: "'\(text)' is not an RFC 3339 date-time with an offset, such as 2026-11-11T01:00:00+08:00")
            }
            at = seconds
        } else {
            at = nil
        }
    }
}

extension RequestContext {
    /// This context with what `batch` states in place of its own values.
    func overridden(by batch: BatchContext?) -> RequestContext {
        guard let batch else { return self }
        var context = RequestContext(
            platform: batch.platform ?? platform, appVersion: batch.appVersion, deviceID: batch.device ?? deviceID,
            now: batch.at ?? now)
        if batch.appVersion == nil { context.appVersion = appVersion }
        return context
    }
}
