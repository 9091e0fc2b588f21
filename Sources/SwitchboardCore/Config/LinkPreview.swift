/// What a link shows when it is shared in a chat app: the OpenGraph and Twitter card values
/// of the page `GET /open` answers a link-preview crawler with. A route's `preview:` gives
/// its own; `link_preview:` in `switchboard.yaml` the site's defaults for the rest.
///
/// ```yaml
/// preview: { title: "Running shoes", description: "Light and fast", image: "https://cdn.example.com/p.png" }
/// ```
public struct LinkPreview: Sendable, Hashable, Codable {
    /// `og:title` and `twitter:title`.
    public var title: String?
    /// `og:description` and `twitter:description`.
    public var description: String?
    /// `og:image` and `twitter:image`: an absolute `https` (or `http`) URL.
    public var image: String?

    /// A preview with the given values.
    public init(title: String? = nil, description: String? = nil, image: String? = nil) {
        self.title = title
        self.description = description
        self.image = image
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case title, description, image }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        description = try container.decodeIfPresent(String.self, forKey: .description)
        image = try container.decodeIfPresent(String.self, forKey: .image)
        if let image, !Self.isWebURL(image) {
            throw DecodingError.dataCorruptedError(
                forKey: .image, in: container, debugDescription: "'\(image)' is not an absolute https URL (the image of a link preview)")
        }
    }

    /// The preview as route files and the admin state write it.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let title { members.append(("title", .string(title))) }
        if let description { members.append(("description", .string(description))) }
        if let image { members.append(("image", .string(image))) }
        return .object(members)
    }

    /// Each value of `self`, else of `defaults`.
    public func over(_ defaults: LinkPreview) -> LinkPreview {
        LinkPreview(title: title ?? defaults.title, description: description ?? defaults.description, image: image ?? defaults.image)
    }

    static func isWebURL(_ text: String) -> Bool {
        guard let url = try? ParsedURL.parse(text), url.isHTTP, url.host?.isEmpty == false else { return false }
        return true
    }
}
