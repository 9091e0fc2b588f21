#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs programs the tests build or generate (the `switchboard` binary, compiled code).
package enum Subprocess {
    /// Runs `path` with `arguments` to its end.
    ///
    /// - Returns: its exit status, and what it wrote to standard output and standard error,
    ///   interleaved as written.
    package static func run(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw TestSetupError("pipe failed: \(String(cString: strerror(errno)))") }
        let child: ChildProcess
        do {
            child = try ChildProcess(
                path, arguments, standardOutput: .descriptor(ends[1]), standardError: .descriptor(ends[1]))
        } catch {
            close(ends[0])
            close(ends[1])
            throw error
        }
        // The child holds the writing end now: reading reaches the end when it exits.
        close(ends[1])
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            output += chunk[..<count]
        }
        close(ends[0])
        return (child.waitUntilExit().status, String(decoding: output, as: UTF8.self))
    }
}
