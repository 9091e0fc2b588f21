/// Where a published app-link component cannot say exactly what its route takes: the
/// lint `switchboard check` reports, naming the route (design.md §11).
public struct AppLinkInexactness: Sendable, Hashable {
    /// What cannot be said, each with a stable lint code.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A constrained param (`<int>`, `<uuid>`, a regex) is published as any one segment,
        /// and a link the constraint refuses goes, by the router, to a later route with the
        /// other `app` value: it opens the app anyway (or, for `app: false`, is kept out of it).
        case constraintWidened = "applink_constraint_widened"
        /// A static segment with `*` or `?` is published with `?` (any one character) there.
        case wildcardLiteral = "applink_wildcard_literal"
        /// A static segment with characters a link carries percent-encoded is published
        /// encoded: a link that spells them differently does not open the app.
        case encodedLiteral = "applink_encoded_literal"
        /// A host pattern on a port other than 443 is not published at all.
        case portLeftOut = "applink_port_left_out"
        /// A catch-all after a param and a static segment (`/u/:id/posts/*rest`): links much
        /// longer than the host's longest pattern that it takes (or, for `app: false`, could
        /// match) do not open the app (Apple's greedy `*` cannot be held to one segment on a
        /// path of any length).
        case deepCatchAll = "applink_deep_catch_all"
    }

    /// The route concerned.
    public var routeID: String
    /// The pattern as written.
    public var pattern: String
    /// What cannot be said.
    public var kind: Kind
    /// What the published component does instead.
    public var detail: String
    /// Whether the route is an app route (`app: true`).
    public var app: Bool

    /// The lint's code (`applink_constraint_widened`, …).
    public var code: String { kind.rawValue }
}
