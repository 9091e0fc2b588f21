/// Where `switchboard healthcheck` asks: a listen address whose wildcard host is turned into
/// loopback, since a server listening on every address answers on loopback too.
struct HealthcheckTarget: CustomStringConvertible {
    let host: String
    let port: UInt16

    /// `host:port` or `[v6]:port`; `0.0.0.0`, `*` and an empty host become `127.0.0.1`, `::` becomes `::1`.
    init?(listenAddress: String) {
        var host: Substring
        let portText: Substring
        if listenAddress.hasPrefix("[") {
            guard let close = listenAddress.firstIndex(of: "]"),
                listenAddress[listenAddress.index(after: close)...].hasPrefix(":")
            else { return nil }
            host = listenAddress[listenAddress.index(after: listenAddress.startIndex)..<close]
            portText = listenAddress[listenAddress.index(close, offsetBy: 2)...]
        } else {
            guard let colon = listenAddress.lastIndex(of: ":") else { return nil }
            host = listenAddress[..<colon]
            portText = listenAddress[listenAddress.index(after: colon)...]
        }
        guard let port = UInt16(portText), port != 0 else { return nil }
        if host.isEmpty || host == "0.0.0.0" || host == "*" { host = "127.0.0.1" }
        if host == "::" { host = "::1" }
        self.host = String(host)
        self.port = port
    }

    var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
