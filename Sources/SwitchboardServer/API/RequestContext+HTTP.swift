import SwitchboardCore
import SwitchboardHTTP

extension RequestContext {
    /// The asking app as a request describes it: the `platform`, `appVersion` and `device`
    /// query parameters, else the `X-App-Platform`, `X-App-Version` and `X-Device-Id` headers;
    /// `now` from the service's clock (`nil`: not read).
    init(request: HTTPRequest, query: [QueryItem], now: Double?) {
        func value(_ parameter: String, _ header: String) -> String? {
            if let item = query.first(where: { $0.name == parameter }), !item.value.isEmpty { return item.value }
            return request.header(header).flatMap { $0.isEmpty ? nil : $0 }
        }
        self.init(
            platform: value("platform", "X-App-Platform"), appVersion: value("appVersion", "X-App-Version"),
            deviceID: value("device", "X-Device-Id"), now: now)
    }
}
