extension APIError {
    /// The HTTP answer to a refused admin change: the one place where the admin domain's
    /// kinds of refusal become statuses.
    init(_ error: AdminChangeError) {
        let status =
            switch error.kind {
            case .invalid: 400
            case .notFound: 404
            case .conflict: 409
            case .versionMismatch: 412
            case .limitExceeded: 422
            case .storeUnavailable, .persistenceFailed: 503
            }
        self.init(status: status, code: error.code, message: error.message, issues: error.issues)
    }
}
