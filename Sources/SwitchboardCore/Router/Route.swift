/// A route registration: what a module declares in its route file (design.md §2).
public struct Route: Sendable, Hashable {
    /// Unique across every route file and the admin API, e.g. `product.detail`.
    public var id: String
    /// The module that owns the route (the route file's `module`).
    public var module: String
    /// One or more patterns (see ``RoutePattern``); all resolve to this route.
    public var patterns: [String]
    /// Free-form JSON object returned to the client.
    public var target: JSONValue
    /// Default params, the lowest precedence (below query parameters and captures).
    public var defaultParams: [(name: String, value: String)]
    /// Where the page lives on the web, filled from the merged params (returned as `webURL`).
    public var web: WebURLTemplate?
    /// Whether the app opens this route's https links; `false` publishes it as an `exclude`
    /// component in the apple-app-site-association file.
    public var app: Bool
    /// The oldest app version that can show this route natively; older apps are told to open
    /// ``web`` instead (`openWeb` in `/resolve`). Checked at registration.
    public var minAppVersion: String?
    /// What a shared link shows in chat apps; `nil`: the site's `link_preview`.
    public var preview: LinkPreview?
    /// Where `GET /open` sends each platform instead of the web page or the store.
    public var open: PlatformDestinations?

    /// A route with the given fields (see ``RouteDefinition`` for their meaning in a route file).
    public init(
        id: String, module: String, patterns: [String], target: JSONValue = .object([]),
        defaultParams: [(name: String, value: String)] = [], web: WebURLTemplate? = nil, app: Bool = true,
        minAppVersion: String? = nil, preview: LinkPreview? = nil, open: PlatformDestinations? = nil
    ) {
        self.id = id
        self.module = module
        self.patterns = patterns
        self.target = target
        self.defaultParams = defaultParams
        self.web = web
        self.app = app
        self.minAppVersion = minAppVersion
        self.preview = preview
        self.open = open
    }

    public static func == (lhs: Route, rhs: Route) -> Bool {
        lhs.id == rhs.id && lhs.module == rhs.module && lhs.patterns == rhs.patterns
            && lhs.target == rhs.target
            && lhs.defaultParams.map(\.name) == rhs.defaultParams.map(\.name)
            && lhs.defaultParams.map(\.value) == rhs.defaultParams.map(\.value)
            && lhs.web == rhs.web && lhs.app == rhs.app && lhs.minAppVersion == rhs.minAppVersion
            && lhs.preview == rhs.preview && lhs.open == rhs.open
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(module)
        hasher.combine(patterns)
    }
}
