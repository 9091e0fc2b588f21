import SwitchboardHTTP

/// `GET /console` and `GET /console/{name}`: the admin console's page and files
/// (design.md "Console"). It is a `404` while `console.enabled` is off, and a `403` while no
/// admin token is configured, as the admin API is. The files hold no secret, so they are
/// served without a token: the page asks for one and sends it with every API call.
struct ConsoleEndpoint: Sendable {
    let context: ServerContext

    /// `GET /console`.
    func page(_ request: APIRequest) throws(APIError) -> HTTPResponse {
        try checkAvailable()
        return Self.response(ConsoleAsset.page)
    }

    /// `GET /console/{name}`.
    func file(_ request: APIRequest) throws(APIError) -> HTTPResponse {
        try checkAvailable()
        let name = request.pathID ?? ""
        guard let asset = ConsoleAsset.files[name] else {
            throw APIError(status: 404, code: "not_found", message: "the console has no file named '\(name)'")
        }
        return Self.response(asset)
    }

    /// Refuses while the console is off or no admin token is configured.
    private func checkAvailable() throws(APIError) {
        guard context.snapshot.config.settings.console.enabled else {
            throw APIError(
                status: 404, code: "not_found",
                message: "the console is disabled: set console: {enabled: true} in switchboard.yaml, then reload")
        }
        guard !context.adminTokens.current.isEmpty else {
            throw APIError(
                status: 403, code: "admin_disabled",
                message: "the console needs the admin API, which is disabled: set the environment variable named by "
                    + "admin_token_env (or admin_tokens), then reload (SIGHUP) or restart")
        }
    }

    private static func response(_ asset: ConsoleAsset) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ConsoleSecurityHeaders.headers(contentType: asset.contentType), body: asset.bytes)
    }
}
