import SwitchboardHTTP

/// One operation of the API: what answers one method on one path.
struct Endpoint: Sendable {
    /// Who may call it.
    enum Access: Sendable, Equatable {
        /// Anyone.
        case open
        /// Holders of an admin token (`Authorization: Bearer …`) whose role allows this one:
        /// `.admin(.read)` for what only reads, `.admin(.write)` for every change.
        case admin(AdminRole)
    }

    /// The label of its metrics series (`resolve`, `admin`, …): fixed, never the raw path.
    let name: String
    let access: Access
    /// The error code of a malformed query string (`invalid_url` where the only parameter
    /// that matters is the URL).
    let malformedQueryCode: String
    /// What a cache holds for this exact request against this snapshot (the resolve cache): a
    /// finished answer, sent without parsing anything, or the key a fresh answer is stored
    /// under. It must only answer requests it answered before, in full.
    let cachedAnswer: (@Sendable (HTTPRequest, Snapshot) -> CacheLookup)?
    /// Answers the request; a thrown ``APIError`` is rendered by the table.
    let handle: @Sendable (APIRequest) throws(APIError) -> HTTPResponse

    init(
        _ name: String, access: Access = .open, malformedQueryCode: String = "invalid_query",
        cachedAnswer: (@Sendable (HTTPRequest, Snapshot) -> CacheLookup)? = nil,
        handle: @escaping @Sendable (APIRequest) throws(APIError) -> HTTPResponse
    ) {
        self.name = name
        self.access = access
        self.malformedQueryCode = malformedQueryCode
        self.cachedAnswer = cachedAnswer
        self.handle = handle
    }
}

/// What an endpoint's cache found for a request.
enum CacheLookup: Sendable {
    /// The finished answer.
    case hit(HTTPResponse)
    /// No answer: the key to store the fresh one under (``APIRequest/cacheKey``), computed
    /// once per request, or `nil` when the answer must not be cached.
    case miss(ResolveCache.Key?)
}
