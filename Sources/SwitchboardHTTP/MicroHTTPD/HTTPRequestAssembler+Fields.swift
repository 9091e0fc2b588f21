extension HTTPRequestAssembler {
    /// Takes one header field where libmicrohttpd keeps it (the C strings of its read buffer):
    /// appends it, its value without the trailing spaces and tabs libmicrohttpd leaves on it
    /// (they are not part of a field value, RFC 9110 §5.5). `Transfer-Encoding` keeps them:
    /// libmicrohttpd frames the body by the value as it left it, and the framing check must see
    /// what it sees.
    ///
    /// It also notes, in ``untrustedHead``, a head whose framing libmicrohttpd may have read
    /// differently from the client or a proxy before us (request smuggling, RFC 9112 §5 and
    /// §11.2), from where the field's bytes lie; the checks run cheapest first, since this runs
    /// for every field of every request.
    ///
    /// - Parameters:
    ///   - name: the field name, `nameCount` bytes, followed by a NUL.
    ///   - value: the value, `valueCount` bytes, followed by a NUL; `nil` for none.
    func collectField(name: UnsafeRawPointer, nameCount: Int, value: UnsafeRawPointer?, valueCount: Int) {
        let nameAddress = UInt(bitPattern: name)
        if let expected = nextFieldAddress {
            nextFieldAddress = nil
            // The bytes after the framing field's value are not this field's line: they were
            // cut off by a NUL byte.
            if nameAddress != expected { untrustedHead = .nulInFramingField }
        }
        // libmicrohttpd joins an obs-fold line to the field *name*, which it moves to new memory
        // past the read buffer, while the value stays in the line: only a folded field has its
        // value before its name (measured with 0.9.75; "Content-Length:\r\n 60" arrives as the
        // name "Content-Length60" and an empty value).
        if let value, UInt(bitPattern: value) < nameAddress { untrustedHead = .obsFold }
        let nameBytes = UnsafeRawBufferPointer(start: name, count: nameCount)
        // Whitespace before the colon stays in the name, so the field is not found by its name.
        if !HTTPToken.isToken(nameBytes) { untrustedHead = .nameNotToken }
        let isTransferEncoding = nameCount == 17 && HTTPHeaderFields.name(nameBytes, is: "Transfer-Encoding")
        if let value,
            isTransferEncoding || (nameCount == 14 && HTTPHeaderFields.name(nameBytes, is: "Content-Length")),
            value.load(fromByteOffset: valueCount + 1, as: UInt8.self) != 0
        {
            // libmicrohttpd ends the value at its first NUL. Past that NUL (which ends every value)
            // comes another NUL (the LF of CRLF), or the next field's name (a line ending in a bare
            // LF), or the rest of a value that had a NUL in it.
            nextFieldAddress = UInt(bitPattern: value) + UInt(valueCount) + 1
        }
        var valueBytes = UnsafeRawBufferPointer(start: value, count: value == nil ? 0 : valueCount)
        if !isTransferEncoding {
            var count = valueBytes.count
            while count > 0, valueBytes[count - 1] == UInt8(ascii: " ") || valueBytes[count - 1] == UInt8(ascii: "\t") {
                count -= 1
            }
            valueBytes = UnsafeRawBufferPointer(rebasing: valueBytes[..<count])
        }
        addField(name: nameBytes, value: valueBytes)
    }

    /// Whether the last field had bytes after a NUL in its value, where its line should end:
    /// call it once every field has been collected.
    func fieldsCollected() {
        if nextFieldAddress != nil { untrustedHead = .nulInFramingField }
    }
}
