/// One entry of a route file's `routes:` list (design.md §2).
///
/// ```yaml
/// - id: product.detail
///   pattern: /product/:id          # or patterns: [...]
///   target: { page: ProductDetail }
///   params: { source: deeplink }
///   web: https://m.example.com/p/:id   # optional: the page on the web
///   app: false                          # optional: the app does not open these links
///   minAppVersion: 5.2.0                # optional: older apps open `web` instead
///   preview: { title: Shoes }            # optional: what a shared link shows (LinkPreview)
///   open: { ios: "https://…" }          # optional: /open's destination per platform
///   examples: [shopapp://product/42]     # optional: config tests, see ConfigExample
/// ```
public struct RouteDefinition: Sendable, Hashable, Codable {
    /// The route's id, unique across all route files.
    public var id: String
    /// The route's patterns (`pattern:` in a file is a list of one).
    public var patterns: [String]
    /// The route's `target` object, returned as is.
    public var target: JSONValue
    /// Default params (lowest precedence).
    public var params: [String: String]
    /// The page on the web: an absolute http(s) URL template with `:name` placeholders
    /// filled from the merged params (see ``WebURLTemplate``).
    public var web: String?
    /// Whether the app opens these links (default `true`); `false` makes the route an
    /// `exclude` component of the apple-app-site-association file.
    public var app: Bool?
    /// The oldest app version that shows this route natively (needs `web`).
    public var minAppVersion: String?
    /// What a shared link shows in chat apps (the page `/open` gives link-preview crawlers).
    public var preview: LinkPreview?
    /// Where `/open` sends each platform instead of the web page or the store.
    public var open: PlatformDestinations?
    /// URLs that must resolve to this route (or as each one says); checked by `switchboard check`.
    public var examples: [ConfigExample]?

    /// A definition with the given fields; absent optional keys are `nil`.
    public init(
        id: String, patterns: [String], target: JSONValue = .object([]), params: [String: String] = [:],
        web: String? = nil, app: Bool? = nil,
        minAppVersion: String? = nil, preview: LinkPreview? = nil, open: PlatformDestinations? = nil,
        examples: [ConfigExample]? = nil
    ) {
        self.id = id
        self.patterns = patterns
        self.target = target
        self.params = params
        self.web = web
        self.app = app
        self.minAppVersion = minAppVersion
        self.preview = preview
        self.open = open
        self.examples = examples
    }

    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder, extraAllowedKeys: [])
    }

    /// Decodes a definition that sits in an object with more keys (e.g. an admin route's `module`).
    package init(from decoder: any Decoder, extraAllowedKeys: [String]) throws {
        try decoder.rejectUnknownKeys(allowed: RouteDefinitionKey.allCases.map(\.rawValue) + extraAllowedKeys)
        let container = try decoder.container(keyedBy: RouteDefinitionKey.self)
        id = try container.decode(String.self, forKey: .id)
        let single = try container.decodeIfPresent(String.self, forKey: .pattern)
        let list = try container.decodeIfPresent([String].self, forKey: .patterns)
        switch (single, list) {
        case (let single?, nil): patterns = [single]
        case (nil, let list?) where !list.isEmpty: patterns = list
        case (nil, _):
            throw DecodingError.dataCorruptedError(
                forKey: .patterns, in: container, debugDescription: "route '\(id)' needs 'pattern' or a non-empty 'patterns'")
        case (_?, _?):
            throw DecodingError.dataCorruptedError(
                forKey: .patterns, in: container, debugDescription: "route '\(id)' has both 'pattern' and 'patterns'; keep one")
        }
        target = try container.decodeIfPresent(JSONValue.self, forKey: .target) ?? .object([])
        guard case .object = target else {
            throw DecodingError.dataCorruptedError(
                forKey: .target, in: container, debugDescription: "route '\(id)': 'target' must be an object")
        }
        params = try container.decodeIfPresent([String: String].self, forKey: .params) ?? [:]
        web = try container.decodeIfPresent(String.self, forKey: .web)
        app = try container.decodeIfPresent(Bool.self, forKey: .app)
        minAppVersion = try container.decodeIfPresent(String.self, forKey: .minAppVersion)
        preview = try container.decodeIfPresent(LinkPreview.self, forKey: .preview)
        open = try container.decodeIfPresent(PlatformDestinations.self, forKey: .open)
        examples = try container.decodeIfPresent([ConfigExample].self, forKey: .examples)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: RouteDefinitionKey.self)
        try container.encode(id, forKey: .id)
        if patterns.count == 1 {
            try container.encode(patterns[0], forKey: .pattern)
        } else {
            try container.encode(patterns, forKey: .patterns)
        }
        try container.encode(target, forKey: .target)
        if !params.isEmpty { try container.encode(params, forKey: .params) }
        try container.encodeIfPresent(web, forKey: .web)
        try container.encodeIfPresent(app, forKey: .app)
        try container.encodeIfPresent(minAppVersion, forKey: .minAppVersion)
        try container.encodeIfPresent(preview, forKey: .preview)
        try container.encodeIfPresent(open, forKey: .open)
        try container.encodeIfPresent(examples, forKey: .examples)
    }

    /// The runtime route for this definition, owned by `module`. Default params are sorted
    /// by name so that responses are deterministic.
    public func route(module: String) -> Route {
        Route(
            id: id, module: module, patterns: patterns, target: target,
            defaultParams: params.isEmpty ? [] : params.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) },
            web: web.map(WebURLTemplate.init), app: app ?? true,
            minAppVersion: minAppVersion, preview: preview, open: open)
    }
}
