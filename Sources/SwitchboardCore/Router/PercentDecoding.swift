// TEMPORARY: replaced by the URL module's PercentEncoding once merged.
enum PercentDecoding {
    static func decode(_ source: UnsafeBufferPointer<UInt8>, into destination: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        var written = 0
        var index = 0
        while index < source.count {
            var byte = source[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < source.count + 0, let high = hex(source[index + 1]), let low = hex(source[index + 2]) else { return nil }
                byte = high << 4 | low
                index += 3
            } else {
                index += 1
            }
            guard written < destination.count else { return nil }
            destination[written] = byte
            written += 1
        }
        guard String(validating: UnsafeBufferPointer(rebasing: destination[0..<written]), as: UTF8.self) != nil else { return nil }
        return written
    }
    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: byte - 48
        case 65...70: byte - 55
        case 97...102: byte - 87
        default: nil
        }
    }
}
