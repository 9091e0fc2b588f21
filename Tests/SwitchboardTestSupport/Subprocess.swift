import Foundation

/// Runs programs the tests build or generate (the `switchboard` binary, compiled code).
package enum Subprocess {
    /// Runs `path` with `arguments` to its end.
    ///
    /// - Returns: its exit status, and what it wrote to standard output and standard error,
    ///   interleaved as written.
    package static func run(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
