extension ParsedURL {
    /// Creates a URL from components that are already split and normalised, without parsing.
    ///
    /// A seam for tests and for code that already holds the parts; nothing checks that
    /// `string` agrees with the components, so callers must pass what ``parse(_:)`` would
    /// produce (lowercased scheme, lowercased `http`/`https` host, raw percent-encoded parts).
    ///
    /// The first label is `uncheckedString:` rather than `string:` because a plain memberwise
    /// signature would collide with the struct's synthesized memberwise initializer.
    package init(
        uncheckedString string: String,
        scheme: String,
        userinfo: String? = nil,
        host: String? = nil,
        port: Int? = nil,
        path: String = "",
        query: String? = nil,
        fragment: String? = nil
    ) {
        self.string = string
        self.scheme = scheme
        self.userinfo = userinfo
        self.host = host
        self.port = port
        self.path = path
        self.query = query
        self.fragment = fragment
    }
}
