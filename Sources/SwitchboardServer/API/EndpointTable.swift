import SwitchboardCore
import SwitchboardHTTP

/// The one table of the API: method and path to ``Endpoint``. It answers `404` for a path it
/// does not know and `405` with `Allow` for a method a path does not take, checks admin
/// tokens, checks every query the same way (malformed: `400`), and renders every thrown
/// ``APIError``.
///
/// Paths are exact (`/resolve`) or end in one `{id}` segment (`/admin/rules/{id}`); `HEAD` is
/// answered wherever `GET` is.
///
/// ```swift
/// var table = EndpointTable(authorization: AdminAuthorization(tokens: tokens))
/// table.add("GET", "/healthz", Endpoint("healthz") { _ in .json(#"{"status":"ok"}"#) })
/// var body: [UInt8] = []
/// let (name, response) = table.respond(to: request, snapshot: snapshot, body: &body)
/// ```
struct EndpointTable: Sendable {
    private var endpoints: [String: Methods] = [:]
    private let authorization: AdminAuthorization
    /// Paths under this prefix ask for an admin token before anything else is said of them.
    private static let adminPrefix = "/admin"
    private static let idSegment = "{id}"

    /// The endpoints of one path by method: a handful at most, so a scan of short strings
    /// finds one for less than hashing the method would cost, on every request.
    private struct Methods: Sendable {
        private var entries: [(method: String, endpoint: Endpoint)] = []

        subscript(method: String) -> Endpoint? {
            get { entries.first { $0.method == method }?.endpoint }
            set {
                entries.removeAll { $0.method == method }
                if let newValue { entries.append((method, newValue)) }
                audience = entries.contains { $0.endpoint.audience == .operators } ? .operators : .everyone
            }
        }

        var names: [String] { entries.map(\.method) }
        var endpoints: [Endpoint] { entries.map(\.endpoint) }
        /// Operators when any method of the path is for them: a listener serves a path whole.
        private(set) var audience: Endpoint.Audience = .everyone
    }

    init(authorization: AdminAuthorization) {
        self.authorization = authorization
    }

    /// Registers `endpoint` for `method` on `path` (a path may end in `/{id}`).
    mutating func add(_ method: String, _ path: String, _ endpoint: Endpoint) {
        endpoints[path, default: Methods()][method] = endpoint
    }

    /// The endpoint's label and the response for `request`, answered against `snapshot`.
    ///
    /// - Parameters:
    ///   - scope: the endpoints the listener that read the request answers; the others are `404`.
    ///   - body: the body buffer the HTTP server lent the request's thread (empty), handed to
    ///     the endpoint.
    func respond(
        to request: HTTPRequest, snapshot: Snapshot, scope: ListenerScope = .all, body: inout [UInt8]
    ) -> (endpoint: String, response: HTTPResponse) {
        do throws(APIError) {
            return try dispatch(request, snapshot: snapshot, scope: scope, body: &body)
        } catch {
            return (request.path.hasPrefix(Self.adminPrefix) ? "admin" : "not_found", error.response)
        }
    }

    /// ``respond(to:snapshot:body:)`` with a body buffer of its own (tests, tools).
    func respond(to request: HTTPRequest, snapshot: Snapshot) -> (endpoint: String, response: HTTPResponse) {
        var body: [UInt8] = []
        return respond(to: request, snapshot: snapshot, body: &body)
    }

    private func dispatch(
        _ request: HTTPRequest, snapshot: Snapshot, scope: ListenerScope, body: inout [UInt8]
    ) throws(APIError) -> (endpoint: String, response: HTTPResponse) {
        let isAdminPath = request.path == Self.adminPrefix || request.path.hasPrefix(Self.adminPrefix + "/")
        let found = lookUp(request.path)
        // An endpoint of another listener does not exist here: the same 404 as an unknown path,
        // and for an admin path that 404 comes before any token is asked for.
        guard scope.serves(isAdminPath ? .operators : found?.methods.audience ?? .everyone) else {
            throw Self.notFound(request.path)
        }
        let method = request.method == "HEAD" && found?.methods["HEAD"] == nil ? "GET" : request.method
        let endpoint = found?.methods[method]
        // Admin paths say nothing (not even 404 or 405) to a caller without a token. The role
        // named in a refusal is the endpoint's, or for a path or method the API does not have,
        // the one its method would need (reading or changing), which tells nothing more.
        var token: AdminToken?
        if isAdminPath {
            token = try authorization.authenticate(request, needed: Self.neededRole(endpoint, method: method))
        }
        guard let (methods, pathID) = found else { throw Self.notFound(request.path) }
        guard let endpoint else {
            let allowed = Self.allowedMethods(methods)
            let refusal = APIError(
                status: 405, code: "method_not_allowed",
                message: "\(request.method) is not allowed on \(request.path); use \(allowed.joined(separator: " or "))",
                headers: [("Allow", allowed.joined(separator: ", "))])
            return (methods.endpoints.map(\.name).min() ?? "not_found", refusal.response)
        }
        if case .admin(let needed) = endpoint.access {
            let presented: AdminToken
            if let token {
                presented = token
            } else {
                presented = try authorization.authenticate(request, needed: needed)
            }
            do throws(APIError) {
                try AdminAuthorization.requireRole(needed, of: presented)
            } catch {
                return (endpoint.name, error.response)
            }
            token = presented
        }
        let actor = token?.name
        do throws(APIError) {
            let apiRequest = APIRequest(
                http: request, query: QueryParameters(unchecked: request.query), pathID: pathID, actor: actor,
                snapshot: snapshot, malformedQueryCode: endpoint.malformedQueryCode)
            if !endpoint.checksQuery { try apiRequest.checkQuery() }
            return (endpoint.name, try endpoint.handle(apiRequest, &body))
        } catch {
            return (endpoint.name, error.response)
        }
    }

    private static func notFound(_ path: String) -> APIError {
        APIError(status: 404, code: "not_found", message: "no endpoint at \(path); see /openapi.yaml")
    }

    /// The role a call needs: the endpoint's, else reading for `GET`/`HEAD` and writing for
    /// any other method.
    private static func neededRole(_ endpoint: Endpoint?, method: String) -> AdminRole {
        if case .admin(let role) = endpoint?.access { return role }
        return method == "GET" || method == "HEAD" ? .read : .write
    }

    /// The methods registered for a path, and the decoded `{id}` when the path has one.
    private func lookUp(_ path: String) -> (methods: Methods, pathID: String?)? {
        if let methods = endpoints[path] { return (methods, nil) }
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return nil }
        let rawID = path[path.index(after: slash)...]
        guard !rawID.isEmpty, let methods = endpoints[path[..<slash] + "/" + Self.idSegment] else { return nil }
        let id = PercentEncoding.decode(String(rawID), plusAsSpace: false) ?? String(rawID)
        return (methods, id)
    }

    /// The `Allow` list: the registered methods, with `HEAD` beside `GET`, in a fixed order.
    private static func allowedMethods(_ methods: Methods) -> [String] {
        var names = Set(methods.names)
        if names.contains("GET") { names.insert("HEAD") }
        let order = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]
        return order.filter(names.contains) + names.subtracting(order).sorted()
    }
}
