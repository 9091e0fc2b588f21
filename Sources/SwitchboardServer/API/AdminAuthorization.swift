/// Bearer-token check for the admin API: 403 while no token is configured, 401 for a
/// missing or wrong token. The comparison takes the same time wherever the tokens differ.
struct AdminAuthorization {
    let token: String?

    /// `nil` when authorised, else the refusal.
    func refusal(for request: HTTPRequest) -> HTTPResponse? {
        guard let token else {
            return .error(
                status: 403, code: "admin_disabled",
                message: "the admin API is disabled: set the environment variable named by admin_token_env and restart")
        }
        let challenge = [("WWW-Authenticate", #"Bearer realm="switchboard""#)]
        guard let header = request.header("Authorization") else {
            return .error(status: 401, code: "unauthorized", message: "missing Authorization: Bearer <token>", headers: challenge)
        }
        let prefix = "bearer "
        guard header.count > prefix.count, header.lowercased().hasPrefix(prefix) else {
            return .error(status: 401, code: "unauthorized", message: "the Authorization header must be 'Bearer <token>'", headers: challenge)
        }
        let presented = header.dropFirst(prefix.count).trimmingSpaces()
        guard Self.constantTimeEqual(Array(presented.utf8), Array(token.utf8)) else {
            return .error(status: 401, code: "unauthorized", message: "wrong admin token", headers: challenge)
        }
        return nil
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
