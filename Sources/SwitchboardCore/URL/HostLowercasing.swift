/// How the host of an `http`/`https` URL is lowercased (design.md §3: the host is
/// case-insensitive). ASCII letters are lowered byte by byte; a host with non-ASCII characters
/// (an IRI's `BÜCHER.example`) is lowered as Unicode text, so that it compares equal to the
/// `domains` and host patterns of the config, which are lowered the same way. The hex digits of
/// `%HH` escapes are kept as written either way.
enum HostLowercasing {
    /// Whether `bytes` hold a non-ASCII character, so that lowering them takes
    /// ``lowercased(_:)``.
    static func needsUnicode(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.contains { $0 >= 0x80 }
    }

    /// `bytes` (valid UTF-8 with well-formed `%HH` escapes, as a parsed URL's host is) with
    /// every character lowercased, the escapes kept as written.
    static func lowercased(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var result = ""
        var runStart = 0
        var index = 0
        func flushRun(upTo end: Int) {
            guard end > runStart else { return }
            result += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<end]), as: UTF8.self).lowercased()
        }
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "%") else {
                index += 1
                continue
            }
            flushRun(upTo: index)
            let escapeEnd = min(index + 3, bytes.count)
            result += String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<escapeEnd]), as: UTF8.self)
            index = escapeEnd
            runStart = escapeEnd
        }
        flushRun(upTo: bytes.count)
        return result
    }
}
