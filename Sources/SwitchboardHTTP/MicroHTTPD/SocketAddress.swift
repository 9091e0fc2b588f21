#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `sockaddr` in and out: the address the daemon listens on, and a peer's numeric address.
enum SocketAddress {
    /// Calls `body` with a `sockaddr` for `host` (numeric) and `port`.
    static func with<Result>(
        host: String, port: UInt16, family: HTTPServerConfiguration.AddressFamily,
        _ body: (UnsafePointer<sockaddr>) -> Result
    ) -> Result {
        switch family {
        case .ipv4:
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(port.bigEndian)
            _ = inet_pton(AF_INET, host, &address.sin_addr)
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
            }
        case .ipv6:
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(port.bigEndian)
            _ = inet_pton(AF_INET6, host, &address.sin6_addr)
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
            }
        }
    }

    /// The numeric IP address of `address` (`127.0.0.1`, `::1`); `nil` for another family.
    static func numericHost(of address: UnsafePointer<sockaddr>) -> String? {
        let capacity = Int(INET6_ADDRSTRLEN) + 1
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { text -> String? in
            guard let buffer = text.baseAddress else { return nil }
            let converted: UnsafePointer<CChar>?
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                converted = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                    var raw = ipv4.pointee.sin_addr
                    return inet_ntop(AF_INET, &raw, buffer, socklen_t(capacity))
                }
            case AF_INET6:
                converted = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                    var raw = ipv6.pointee.sin6_addr
                    return inet_ntop(AF_INET6, &raw, buffer, socklen_t(capacity))
                }
            default:
                return nil
            }
            return converted.map { String(cString: $0) }
        }
    }
}
