/// One app-link component: a `/` pattern, whether it excludes, and the route it stands for
/// (or why it is there). Written as an AASA `components` entry or an Android
/// `dynamic_app_link_components` entry, which differ only in the comment's key.
public struct AppLinkComponent: Sendable, Hashable {
    /// The path pattern: `*` any run of characters, `?` one character.
    public var path: String
    /// Whether a matching URL must not open the app.
    public var exclude: Bool
    /// The route id, or why an exclude component is there.
    public var comment: String

    /// A component.
    public init(path: String, exclude: Bool, comment: String) {
        self.path = path
        self.exclude = exclude
        self.comment = comment
    }

    /// The component as JSON, its comment under `commentKey` (`comment` for Apple,
    /// `comments` for Android).
    func json(commentKey: String) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("/", .string(path))]
        if exclude { members.append(("exclude", .bool(true))) }
        members.append((commentKey, .string(comment)))
        return .object(members)
    }
}
