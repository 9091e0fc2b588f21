import SwitchboardCore
import SwitchboardHTTP

extension RequestContext {
    /// The asking app as a request describes it: the `platform`, `appVersion` and `device`
    /// query parameters, else the `X-App-Platform`, `X-App-Version` and `X-Device-Id` headers;
    /// `now` from the service's clock (`nil`: not read).
    init(request: HTTPRequest, query: [QueryItem], now: Double?) {
        self.init(request: request, now: now) { name in query.first { $0.name == name }?.value }
    }

    /// The asking app as a request describes it, its parameters read from `query` on demand
    /// (see ``init(request:query:now:)``).
    init(request: HTTPRequest, query: QueryParameters, now: Double?) {
        self.init(request: request, now: now) { query.first(named: $0) }
    }

    /// The asking app's platform and version only (what analytics count), read as
    /// ``init(request:query:now:)`` reads them; the parameters only when `query` is given
    /// (a query that names no app need not be scanned).
    init(platformAndVersionOf request: HTTPRequest, query: QueryParameters?) {
        self.init(request: request, now: nil, readsDevice: false) { name in query?.first(named: name) }
    }

    /// The asking app from the first value of each parameter (`parameter`), else its header.
    private init(request: HTTPRequest, now: Double?, readsDevice: Bool = true, parameter: (String) -> String?) {
        func value(_ name: String, _ header: String) -> String? {
            if let value = parameter(name), !value.isEmpty { return value }
            return request.header(header).flatMap { $0.isEmpty ? nil : $0 }
        }
        self.init(
            platform: value("platform", "X-App-Platform"), appVersion: value("appVersion", "X-App-Version"),
            deviceID: readsDevice ? value("device", "X-Device-Id") : nil, now: now)
    }
}
