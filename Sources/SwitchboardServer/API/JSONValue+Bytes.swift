import SwitchboardCore

extension JSONValue {
    /// Compact JSON, as the bytes of a response body.
    var jsonBytes: [UInt8] {
        var writer = JSONWriter(capacity: 512)
        writer.write(self)
        return writer.bytes
    }
}
