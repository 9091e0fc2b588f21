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

    /// Who the endpoint is for, which decides the listener that answers it (``ListenerScope``).
    enum Audience: Sendable, Equatable {
        /// Apps, browsers and probes: on the public listener.
        case everyone
        /// Operators and their tools (the admin API, the console, metrics, the API document):
        /// only on the admin listener when one is set.
        case operators
    }

    /// Answers a request, given the body buffer the HTTP server lent the request's thread
    /// (empty): an endpoint may write its body there and answer with it.
    typealias Handler = @Sendable (_ request: APIRequest, _ body: inout [UInt8]) throws(APIError) -> HTTPResponse

    /// The label of its metrics series (`resolve`, `admin`, …): fixed, never the raw path.
    let name: String
    let access: Access
    /// Who it is for: ``Audience-swift.enum/operators`` for every endpoint that asks for a token.
    let audience: Audience
    /// The error code of a malformed query string (`invalid_url` where the only parameter
    /// that matters is the URL).
    let malformedQueryCode: String
    /// Whether the endpoint checks the query itself (``APIRequest/checkQuery()``) before it reads
    /// a parameter, rather than the table before it is called: so that an endpoint answering
    /// from a cache keyed by the raw query skips a check the cached answer already passed.
    let checksQuery: Bool
    /// Answers the request; a thrown ``APIError`` is rendered by the table.
    let handle: Handler

    /// An endpoint that writes its body into the lent buffer (`GET /resolve`).
    init(
        _ name: String, access: Access = .open, audience: Audience = .everyone, malformedQueryCode: String = "invalid_query",
        checksQuery: Bool = false, writing handle: @escaping Handler
    ) {
        self.name = name
        self.access = access
        self.audience = access == .open ? audience : .operators
        self.malformedQueryCode = malformedQueryCode
        self.checksQuery = checksQuery
        self.handle = handle
    }

    /// An endpoint that makes its own body.
    init(
        _ name: String, access: Access = .open, audience: Audience = .everyone, malformedQueryCode: String = "invalid_query",
        handle: @escaping @Sendable (APIRequest) throws(APIError) -> HTTPResponse
    ) {
        self.init(name, access: access, audience: audience, malformedQueryCode: malformedQueryCode) {
            (request: APIRequest, _: inout [UInt8]) throws(APIError) -> HTTPResponse in try handle(request)
        }
    }
}
