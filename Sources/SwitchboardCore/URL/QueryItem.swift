/// One `name=value` pair of a URL's query, percent-decoded (see ``ParsedURL/queryItems()``).
public struct QueryItem: Sendable, Hashable {
    /// The decoded name (the text before the first `=`).
    public let name: String
    /// The decoded value (the text after the first `=`); empty when there is no `=`.
    public let value: String

    /// Creates a query item from decoded text.
    /// - Parameters:
    ///   - name: The decoded name.
    ///   - value: The decoded value.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
