import SwitchboardHTTP

/// An admin token the server accepts, with the name the history records and what it may do.
package struct AdminToken: Sendable, Hashable {
    package let name: String
    package let secret: String
    package let role: AdminRole

    package init(name: String, secret: String, role: AdminRole = .write) {
        self.name = name
        self.secret = secret
        self.role = role
    }
}

/// Bearer-token check for the admin API: 403 while no token is configured, 401 for a
/// missing or wrong token, 403 for a token whose role does not allow the call. Every refusal
/// names the role the call needs, so that the caller knows which token to ask for. Every
/// configured token is compared, each in constant time, so the time does not reveal which
/// token matched or where a wrong one differs.
///
/// Wrong tokens are counted per client address (``AdminAuthFailureLimiter``): an address that
/// sent too many gets `429 too_many_attempts` with `Retry-After` before its token is compared.
struct AdminAuthorization: Sendable {
    /// Where the tokens in force are read, once per request: a reload can replace them.
    let tokens: AdminTokenHolder
    /// Counts wrong tokens per client address, and refuses the addresses that sent too many.
    let limiter: AdminAuthFailureLimiter
    /// Counts the wrong tokens and the refused attempts (`nil` in tests of the table alone).
    let metrics: Metrics?

    init(tokens: AdminTokenHolder, limiter: AdminAuthFailureLimiter = AdminAuthFailureLimiter(), metrics: Metrics? = nil) {
        self.tokens = tokens
        self.limiter = limiter
        self.metrics = metrics
    }

    /// A check against a fixed list of tokens.
    init(tokens: [AdminToken]) {
        self.init(tokens: AdminTokenHolder(tokens))
    }

    /// The address wrong tokens are counted under: the peer's, or one shared by requests whose
    /// peer is unknown (in-process calls).
    static func clientAddress(_ request: HTTPRequest) -> String {
        request.remoteAddress ?? "unknown"
    }

    /// The token the request presents, whatever its role.
    ///
    /// - Parameter needed: the role of the call, named in the refusals.
    /// - Throws: ``APIError``: `403 admin_disabled`, `429 too_many_attempts` or `401 unauthorized`.
    func authenticate(_ request: HTTPRequest, needed: AdminRole) throws(APIError) -> AdminToken {
        let tokens = tokens.current
        let needs = "this needs a token with role \(needed.rawValue)"
        guard !tokens.isEmpty else {
            throw APIError(
                status: 403, code: "admin_disabled",
                message: "the admin API is disabled: set the environment variable named by admin_token_env "
                    + "(or admin_token_file, or admin_tokens), then reload (SIGHUP) or restart; \(needs)")
        }
        let address = Self.clientAddress(request)
        if let seconds = limiter.retryAfter(address: address) {
            metrics?.recordAdminAuthThrottled()
            throw APIError(
                status: 429, code: "too_many_attempts",
                message: "too many wrong admin tokens from \(address): retry in \(seconds) s with the right token",
                headers: [("Retry-After", "\(seconds)")])
        }
        let challenge = [("WWW-Authenticate", #"Bearer realm="switchboard""#)]
        guard let header = request.header("Authorization") else {
            throw APIError(
                status: 401, code: "unauthorized", message: "missing Authorization: Bearer <token>; \(needs)", headers: challenge)
        }
        let prefix = "bearer "
        guard header.count > prefix.count, header.lowercased().hasPrefix(prefix) else {
            throw APIError(
                status: 401, code: "unauthorized", message: "the Authorization header must be 'Bearer <token>'; \(needs)",
                headers: challenge)
        }
        let presented = Array(header.dropFirst(prefix.count).trimmingSpaces().utf8)
        var matched: AdminToken?
        for token in tokens where Self.constantTimeEqual(presented, Array(token.secret.utf8)) && matched == nil {
            matched = token
        }
        guard let matched else {
            limiter.recordFailure(address: address)
            metrics?.recordAdminAuthFailure()
            throw APIError(status: 401, code: "unauthorized", message: "wrong admin token; \(needs)", headers: challenge)
        }
        return matched
    }

    /// Refuses `token` when its role does not allow a call that needs `needed`.
    ///
    /// - Throws: ``APIError``: `403 forbidden_role`.
    static func requireRole(_ needed: AdminRole, of token: AdminToken) throws(APIError) {
        guard token.role.allows(needed) else {
            throw APIError(
                status: 403, code: "forbidden_role",
                message: "this needs a token with role \(needed.rawValue); '\(token.name)' has role \(token.role.rawValue)")
        }
    }

    /// Compares every byte of the longer input, so the time does not reveal where they differ.
    static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: lhs.count ^ rhs.count)
        let length = max(lhs.count, rhs.count)
        for index in 0..<length {
            let a = index < lhs.count ? lhs[index] : 0
            let b = index < rhs.count ? rhs[index] : 0
            difference |= a ^ b
        }
        return difference == 0 && lhs.count == rhs.count
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
