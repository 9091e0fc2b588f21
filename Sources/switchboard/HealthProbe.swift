#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one HTTP request `switchboard healthcheck` makes: `GET path` on a plain TCP connection,
/// read up to the status line. This file owns the sockets; the command owns the policy.
enum HealthProbe {
    /// Why the server could not be asked.
    struct Failure: Error {
        let reason: String
    }

    /// Where to connect: a listen address with a wildcard host turned into loopback.
    struct Target: CustomStringConvertible {
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

    /// The status code `target` answers to `GET path`.
    ///
    /// - Throws: ``Failure`` when the host does not resolve, the connection is refused or
    ///   times out, or the answer is not HTTP.
    static func status(of target: Target, path: String, timeoutSeconds: Int) throws(Failure) -> Int {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(target.host, String(target.port), &hints, &list) == 0, let first = list else {
            throw Failure(reason: "cannot resolve \(target.host)")
        }
        defer { freeaddrinfo(list) }
        let descriptor = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        guard descriptor >= 0 else { throw Failure(reason: "socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        // On Linux the send timeout also bounds connect().
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard connect(descriptor, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            throw Failure(reason: "cannot connect: \(String(cString: strerror(errno)))")
        }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: \(target.description)\r\nConnection: close\r\n\r\n".utf8)
        let sent = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
        guard sent == request.count else { throw Failure(reason: "cannot send the request: \(String(cString: strerror(errno)))") }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while !received.contains(UInt8(ascii: "\n")), received.count < 4096 {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else {
                throw Failure(
                    reason: count == 0 ? "the connection closed before an answer" : "no answer: \(String(cString: strerror(errno)))")
            }
            received += buffer[..<count]
        }
        // HTTP/1.1 200 OK
        let line = String(decoding: received.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        let parts = line.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else {
            throw Failure(reason: "not an HTTP answer: \(line.prefix(80))")
        }
        return status
    }
}
