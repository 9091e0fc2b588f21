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
    /// A finished answer for this exact request against this snapshot, when one is at hand (the
    /// resolve cache): it is sent without parsing anything. It must only answer requests it
    /// answered before, in full.
    let cachedAnswer: (@Sendable (HTTPRequest, Snapshot) -> HTTPResponse?)?
    /// Answers the request; a thrown ``APIError`` is rendered by the table.
    let handle: @Sendable (APIRequest) throws(APIError) -> HTTPResponse

    init(
        _ name: String, access: Access = .open, malformedQueryCode: String = "invalid_query",
        cachedAnswer: (@Sendable (HTTPRequest, Snapshot) -> HTTPResponse?)? = nil,
        handle: @escaping @Sendable (APIRequest) throws(APIError) -> HTTPResponse
    ) {
        self.name = name
        self.access = access
        self.malformedQueryCode = malformedQueryCode
        self.cachedAnswer = cachedAnswer
        self.handle = handle
    }
}
