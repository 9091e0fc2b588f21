#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why the test client failed: the operation and the OS error or protocol problem.
package struct HTTPTestClientError: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) { self.description = description }

    /// `operation: strerror(errno)`.
    package static func system(_ operation: String, errno code: Int32 = errno) -> HTTPTestClientError {
        HTTPTestClientError("\(operation): \(String(cString: strerror(code))) (errno \(code))")
    }
}

/// A response as read off the wire.
package struct HTTPTestResponse {
    package var status: Int
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]

    /// The first header called `name` (case-insensitive).
    package func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The body as UTF-8 text.
    package var text: String { String(decoding: body, as: UTF8.self) }
}

/// A tiny blocking HTTP/1.1 client over a POSIX TCP socket, for tests over loopback.
///
/// It sends whatever bytes it is given (so malformed requests, long URLs and hand-written
/// chunked bodies are possible) and reads responses framed by `Content-Length`, by chunked
/// encoding, or by the connection closing. One connection per instance; keep-alive is the
/// default of HTTP/1.1, so several requests can go over it.
package final class HTTPTestClient {
    private var socket: Int32
    private var buffer: [UInt8] = []
    private var readOffset = 0

    /// Connects to `host:port` (IPv4 or IPv6 literal).
    ///
    /// - Parameter timeout: the limit for each blocking send or receive.
    package init(host: String = "127.0.0.1", port: Int, timeout: Duration = .seconds(10)) throws {
        let isIPv6 = host.contains(":")
        // Close-on-exec: servers run as child processes must not inherit test connections.
        let fd = Glibc.socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HTTPTestClientError.system("socket") }
        socket = fd
        var time = timeval(
            tv_sec: Int(timeout.components.seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))

        let result: Int32
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET6, host, &address.sin6_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, host, &address.sin_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard result == 0 else {
            let error = HTTPTestClientError.system("connect to \(host):\(port)")
            // Through close(), which forgets the descriptor: deinit runs when an initializer
            // throws here, and a second close(2) could close a descriptor that another
            // thread has been given since (another test's socket, a server's file).
            close()
            throw error
        }
    }

    deinit { close() }

    /// Closes the connection (idempotent).
    package func close() {
        if socket >= 0 {
            Glibc.close(socket)
            socket = -1
        }
    }

    /// Shuts down the sending side (a half-close): the server reads end of stream, and the
    /// client can still read what it answers.
    package func finishSending() {
        if socket >= 0 { _ = shutdown(socket, Int32(SHUT_WR)) }
    }

    /// Sends `text` and the half-close in one TCP segment (corked until the shutdown), so that
    /// the server has the end of stream by the time it has read the request whole.
    package func sendThenFinishSending(_ text: String) throws {
        var on: Int32 = 1
        #if canImport(Glibc)
            _ = setsockopt(socket, Int32(IPPROTO_TCP), TCP_CORK, &on, socklen_t(MemoryLayout<Int32>.size))
        #else
            _ = setsockopt(socket, Int32(IPPROTO_TCP), TCP_NOPUSH, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        try send(text)
        finishSending()
    }

    /// Sends raw bytes.
    package func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw HTTPTestClientError.system("send")
            }
            sent += count
        }
    }

    /// Sends raw text (UTF-8).
    package func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Sends one request (with `Host`, and `Content-Length` when there is a body) and reads
    /// the response.
    package func request(
        _ method: String = "GET", _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) throws -> HTTPTestResponse {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: localhost\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try send(Array(head.utf8) + (body ?? []))
        return try readResponse(method: method)
    }

    /// Reads one response. For `HEAD`, the body is not read.
    package func readResponse(method: String = "GET") throws -> HTTPTestResponse {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw HTTPTestClientError("malformed status line: \(statusLine)")
        }
        var headers: [(name: String, value: String)] = []
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { throw HTTPTestClientError("malformed header: \(line)") }
            let name = String(line[..<colon])
            let value = line[line.index(after: colon)...].trimmingSpaces()
            headers.append((name, value))
        }
        var response = HTTPTestResponse(status: status, headers: headers, body: [])
        if method == "HEAD" || status == 204 || status == 304 || (100..<200).contains(status) { return response }
        if let length = response.header("Content-Length").flatMap({ Int($0) }) {
            response.body = try readBytes(length)
        } else if response.header("Transfer-Encoding")?.lowercased().contains("chunked") == true {
            response.body = try readChunkedBody()
        } else {
            response.body = try readUntilClosed()
        }
        return response
    }

    /// Whether the server has closed the connection: waits up to `timeout` for end of file
    /// (true) or data (false; the data stays buffered).
    package func waitForClose(timeout: Duration = .seconds(5)) throws -> Bool {
        if readOffset < buffer.count { return false }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(
            timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let ready = poll(&descriptor, 1, milliseconds)
        if ready == 0 { return false }
        guard ready > 0 else { throw HTTPTestClientError.system("poll") }
        do {
            return try fill() == 0
        } catch {
            return true  // ECONNRESET and the like: closed too
        }
    }

    /// Whether something can be read (data or the end of the stream) within `timeout`,
    /// without reading it.
    package func isReadable(within timeout: Duration) throws -> Bool {
        if readOffset < buffer.count { return true }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(
            timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let ready = poll(&descriptor, 1, milliseconds)
        guard ready >= 0 else { throw HTTPTestClientError.system("poll") }
        return ready > 0
    }

    // MARK: Reading

    /// Receives more bytes into the buffer; returns how many (0 at end of file).
    private func fill() throws -> Int {
        if readOffset > 0, readOffset == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            readOffset = 0
        }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { throw HTTPTestClientError("recv timed out") }
                throw HTTPTestClientError.system("recv")
            }
            buffer.append(contentsOf: chunk[0..<count])
            return count
        }
    }

    private func readLine() throws -> String {
        while true {
            if let newline = buffer[readOffset...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = newline
                if end > readOffset, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = String(decoding: buffer[readOffset..<end], as: UTF8.self)
                readOffset = newline + 1
                return line
            }
            if try fill() == 0 { throw HTTPTestClientError("connection closed before a complete line") }
        }
    }

    private func readBytes(_ count: Int) throws -> [UInt8] {
        while buffer.count - readOffset < count {
            if try fill() == 0 {
                throw HTTPTestClientError("connection closed after \(buffer.count - readOffset) of \(count) body bytes")
            }
        }
        let bytes = Array(buffer[readOffset..<(readOffset + count)])
        readOffset += count
        return bytes
    }

    private func readChunkedBody() throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let sizeLine = try readLine()
            let sizeText = sizeLine.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
            guard let size = Int(sizeText.trimmingSpaces(), radix: 16) else {
                throw HTTPTestClientError("malformed chunk size: \(sizeLine)")
            }
            if size == 0 {
                while try !readLine().isEmpty {}  // trailers
                return body
            }
            body += try readBytes(size)
            _ = try readLine()
        }
    }

    private func readUntilClosed() throws -> [UInt8] {
        while try fill() > 0 {}
        let bytes = Array(buffer[readOffset...])
        readOffset = buffer.count
        return bytes
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    package func trimmingSpaces() -> String {
        let text = String(self)
        guard let first = text.firstIndex(where: { $0 != " " && $0 != "\t" }),
            let last = text.lastIndex(where: { $0 != " " && $0 != "\t" })
        else { return "" }
        return String(text[first...last])
    }
}

/// Builds raw HTTP/1.1 requests for tests.
package enum RawRequest {
    /// A chunked body: `bytes` split into chunks of `chunkSize`, then the last chunk.
    package static func chunkedBody(_ bytes: [UInt8], chunkSize: Int) -> [UInt8] {
        var out: [UInt8] = []
        var start = 0
        while start < bytes.count {
            let end = min(start + chunkSize, bytes.count)
            out += Array(String(end - start, radix: 16).utf8) + [13, 10] + bytes[start..<end] + [13, 10]
            start = end
        }
        out += Array("0\r\n\r\n".utf8)
        return out
    }
}
