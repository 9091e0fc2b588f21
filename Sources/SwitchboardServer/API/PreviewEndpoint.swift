import SwitchboardCore
import SwitchboardHTTP
import SwitchboardStore

/// `POST /admin/preview[?examples=K]`: what an admin write would do to recent traffic, without
/// doing it (design.md §9). The body names the write as it would be sent
/// (`{"method", "path", "body"?}`); it is checked exactly as the write checks it (the same
/// refusals, `If-Match` included), its candidate snapshot is built off to the side, and every
/// request of the traffic sample is resolved against the running and the candidate snapshot
/// (``ImpactReport``). Nothing changes; a `read` token may ask.
struct PreviewEndpoint: Sendable {
    /// Examples per group when `examples` is not given.
    static let defaultExamples = 5
    /// What `examples` may be.
    static let examplesRange = 1...50

    let context: ServerContext

    func post(_ request: APIRequest) throws(APIError) -> HTTPResponse {
        let examples = try Self.examples(request)
        let body = try request.decodeBody(
            PreviewBody.self, describedAs: #"{"method": "POST", "path": "/admin/rules", "body": <the write's body>}"#)
        let previewed = try PreviewedWrite(method: body.method, path: body.path)
        if !previewed.write.takesBody, body.body != nil {
            throw APIError.badRequest("invalid_body", "\(body.method) \(body.path) takes no body; leave 'body' out")
        }
        // The write is read from the request it would be: its body, its `{id}`, the preview's
        // headers (`If-Match`) and token.
        let written = APIRequest(
            http: HTTPRequest(
                method: body.method, path: body.path, headers: request.http.headers, body: body.body?.jsonBytes ?? []),
            query: [], pathID: previewed.pathID, actor: request.actor, snapshot: request.snapshot)
        let sides: CandidateSnapshot
        if let change = try previewed.write.change(of: written) {
            sides = try CandidateSnapshot.admin(
                change, expectedVersion: try request.expectedVersion(), actor: request.actor ?? "admin",
                writer: context.adminWriter)
        } else {
            sides = try CandidateSnapshot.reload(
                configDirectory: context.reloader.configDirectory, running: context.snapshot,
                environment: context.reloader.environment())
        }
        let report = ImpactReport.compare(
            context.trafficSample.requests, before: sides.running.resolver, after: sides.candidate.resolver,
            now: context.clock(), examples: examples)
        let version = sides.running.admin.version
        let answer: JSONValue = .object(
            [("version", .number(Double(version))), ("change", sides.change.json)] + report.jsonMembers)
        return .json(answer.jsonBytes, headers: [("ETag", AdminEndpoints.etag(version))])
    }

    /// `examples=K`: how many examples each group keeps.
    ///
    /// - Throws: ``APIError`` (`400 invalid_parameter`) for anything but a whole number in
    ///   ``examplesRange``.
    private static func examples(_ request: APIRequest) throws(APIError) -> Int {
        guard let text = try request.queryValue("examples") else { return defaultExamples }
        guard let value = Int(text), examplesRange.contains(value) else {
            throw APIError.badRequest(
                "invalid_parameter",
                "examples must be a whole number from \(examplesRange.lowerBound) to \(examplesRange.upperBound), not '\(text)'")
        }
        return value
    }
}
