/// A URL syntax error located by a UTF-8 byte offset.
///
/// The byte-level scanners throw this; the public entry points turn it into a
/// ``URLParseError`` whose position counts characters (see ``characterPosition(in:)``).
struct URLSyntaxError: Error, Sendable, Hashable {
    /// What is wrong, for a human.
    let message: String
    /// 0-based UTF-8 byte offset of the offending byte.
    let byteOffset: Int

    /// Converts the byte offset into a character index in `text`, the string that was scanned.
    func parseError(in text: String) -> URLParseError {
        URLParseError(message: message, position: text.characterIndex(ofUTF8Offset: byteOffset))
    }
}
