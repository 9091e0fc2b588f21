/// An example URL attached to a rule or a route, with what it must resolve to: config tests that
/// `switchboard check` runs.
///
/// ```yaml
/// examples:
///   - shopapp://product/42                       # a route: resolves here; a rule: the rule fires
///   - url: https://www.shop.example.com/search/shoes
///     rewritesTo: shopapp://search/shoes           # the final rewritten URL
///     routeId: search.results                      # the route it ends on
///     params: { query: shoes }                     # params it must carry (others may exist too)
///   - { url: "shopapp://product/abc", matched: false }
/// ```
public struct ConfigExample: Sendable, Hashable, Codable {
    /// The URL to resolve.
    public var url: String
    /// The final URL after the rewrite rules (`nil`: not checked).
    public var rewritesTo: String?
    /// The route it must end on (`nil`: the owning route for a route example, not checked for a rule).
    public var routeId: String?
    /// Params the resolution must carry with these values.
    public var params: [String: String]?
    /// Whether it must match a route at all (`false` for a counter-example).
    public var matched: Bool?

    /// An example URL and what its resolution must show; `nil` parts are not checked.
    public init(
        url: String, rewritesTo: String? = nil, routeId: String? = nil, params: [String: String]? = nil,
        matched: Bool? = nil
    ) {
        self.url = url
        self.rewritesTo = rewritesTo
        self.routeId = routeId
        self.params = params
        self.matched = matched
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case url, rewritesTo, routeId, params, matched
    }

    /// Decodes a plain URL string or an object with `url` and expectations.
    public init(from decoder: any Decoder) throws {
        if let url = try? decoder.singleValueContainer().decode(String.self) {
            self.init(url: url)
            return
        }
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            url: try container.decode(String.self, forKey: .url),
            rewritesTo: try container.decodeIfPresent(String.self, forKey: .rewritesTo),
            routeId: try container.decodeIfPresent(String.self, forKey: .routeId),
            params: try container.decodeIfPresent([String: String].self, forKey: .params),
            matched: try container.decodeIfPresent(Bool.self, forKey: .matched))
    }

    public func encode(to encoder: any Encoder) throws {
        if rewritesTo == nil, routeId == nil, params == nil, matched == nil {
            var container = encoder.singleValueContainer()
            try container.encode(url)
            return
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(url, forKey: .url)
        try container.encodeIfPresent(rewritesTo, forKey: .rewritesTo)
        try container.encodeIfPresent(routeId, forKey: .routeId)
        try container.encodeIfPresent(params, forKey: .params)
        try container.encodeIfPresent(matched, forKey: .matched)
    }
}
