#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `host:port` syntax of `listen` (design.md §2) and its checks.
extension HTTPServerConfiguration {
    /// The IP version a listen host binds with.
    enum AddressFamily: Sendable {
        case ipv4
        case ipv6
    }

    /// Splits and checks a `host:port` listen string.
    ///
    /// Accepted hosts: an IPv4 literal, an IPv6 literal in brackets, or `localhost`.
    /// Host names are not resolved (a server should not depend on DNS to start).
    ///
    /// ```swift
    /// try HTTPServerConfiguration.parseListenAddress("127.0.0.1:8080")  // ("127.0.0.1", 8080)
    /// try HTTPServerConfiguration.parseListenAddress("[::1]:8080")      // ("::1", 8080)
    /// try HTTPServerConfiguration.parseListenAddress("localhost:0")     // ("localhost", 0)
    /// ```
    ///
    /// - Returns: the host (IPv6 without brackets) and the port (0 = pick a free port).
    /// - Throws: ``HTTPServerError`` (`invalidListenAddress`) saying what is wrong and
    ///   showing a valid form.
    package static func parseListenAddress(_ text: String) throws(HTTPServerError) -> (host: String, port: Int) {
        func failure(_ problem: String, fix: String) -> HTTPServerError {
            HTTPServerError(.invalidListenAddress, problem, context: "listen address \"\(text)\"", fix: fix)
        }
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else {
                throw failure("the IPv6 address has no closing ']'", fix: "write it as [::1]:8080")
            }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.first == ":" else {
                throw failure("a port must follow the bracketed IPv6 address", fix: "write it as [\(host)]:8080")
            }
            portText = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                throw failure(
                    "the port is missing", fix: "write host:port, e.g. 127.0.0.1:8080 (port 0 picks a free port)")
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            if host.contains(":") {
                throw failure("an IPv6 address must be in brackets", fix: "write it as [\(host)]:\(portText)")
            }
        }
        guard !host.isEmpty else {
            throw failure(
                "the host is missing",
                fix: "write 127.0.0.1:\(portText) for loopback or 0.0.0.0:\(portText) for every IPv4 interface")
        }
        guard !portText.isEmpty, portText.utf8.count <= 5, portText.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
            let port = Int(portText), port <= 65_535
        else {
            throw failure(
                "the port \"\(portText)\" is not a number in 0...65535",
                fix: "e.g. \(host):8080, or port 0 to pick a free port")
        }
        let hostString = String(host)
        _ = try addressFamily(ofHost: hostString, in: "listen address \"\(text)\"")
        return (hostString, port)
    }

    /// `host:port`, with IPv6 hosts in brackets.
    static func formatListenAddress(host: String, port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// The numeric address to bind: `localhost` means `127.0.0.1`.
    package static func numericHost(_ host: String) -> String {
        host.lowercased() == "localhost" ? "127.0.0.1" : host
    }

    /// Whether `host` is an IPv4 or IPv6 literal (or `localhost`).
    ///
    /// - Throws: ``HTTPServerError`` (`invalidListenAddress`) for anything else.
    static func addressFamily(ofHost host: String, in context: String) throws(HTTPServerError) -> AddressFamily {
        let numeric = numericHost(host)
        var ipv4 = in_addr()
        if inet_pton(AF_INET, numeric, &ipv4) == 1 { return .ipv4 }
        var ipv6 = in6_addr()
        if inet_pton(AF_INET6, numeric, &ipv6) == 1 { return .ipv6 }
        throw HTTPServerError(
            .invalidListenAddress, "\"\(host)\" is not an IP address", context: context,
            fix: "use an IPv4 address (127.0.0.1, 0.0.0.0), an IPv6 address in brackets ([::1]) or localhost; "
                + "host names are not resolved")
    }
}
