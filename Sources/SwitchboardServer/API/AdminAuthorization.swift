import SwitchboardHTTP

/// An admin token the server accepts, with the name the history records.
package struct AdminToken: Sendable {
    package let name: String
    package let secret: String

    package init(name: String, secret: String) {
        self.name = name
        self.secret = secret
    }
}

/// Bearer-token check for the admin API: 403 while no token is configured, 401 for a
/// missing or wrong token. Every configured token is compared, each in constant time, so the
/// time does not reveal which token matched or where a wrong one differs.
struct AdminAuthorization: Sendable {
    let tokens: [AdminToken]

    /// The name of the token the request presents.
    ///
    /// - Throws: ``APIError``: `403 admin_disabled` or `401 unauthorized`.
    func authorize(_ request: HTTPRequest) throws(APIError) -> String {
        guard !tokens.isEmpty else {
            throw APIError(
                status: 403, code: "admin_disabled",
                message: "the admin API is disabled: set the environment variable named by admin_token_env "
                    + "(or admin_tokens) and restart")
        }
        let challenge = [("WWW-Authenticate", #"Bearer realm="switchboard""#)]
        guard let header = request.header("Authorization") else {
            throw APIError(status: 401, code: "unauthorized", message: "missing Authorization: Bearer <token>", headers: challenge)
        }
        let prefix = "bearer "
        guard header.count > prefix.count, header.lowercased().hasPrefix(prefix) else {
            throw APIError(
                status: 401, code: "unauthorized", message: "the Authorization header must be 'Bearer <token>'", headers: challenge)
        }
        let presented = Array(header.dropFirst(prefix.count).trimmingSpaces().utf8)
        var matched: String?
        for token in tokens where Self.constantTimeEqual(presented, Array(token.secret.utf8)) && matched == nil {
            matched = token.name
        }
        guard let matched else {
            throw APIError(status: 401, code: "unauthorized", message: "wrong admin token", headers: challenge)
        }
        return matched
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
