/// The routes of a config typed for code generation, the same for every target language:
/// one ``TypedRouteCase`` per route, the patterns in the order the router tries them, and how
/// each case builds its canonical link. A generator only writes these in its language.
struct TypedRouteTable {
    /// How a language names cases and values, and the names its generated type keeps for itself.
    struct Naming {
        /// `lowerCamelCase` (Swift enum cases) or `upperCamelCase` (Kotlin classes).
        var caseName: @Sendable (String) -> String
        /// Names a case cannot take: the generated type's own members and types it refers to.
        var reservedCaseNames: Set<String>
        /// Names a value cannot take.
        var reservedLabels: Set<String>
    }

    /// One canonical link of a case: the expansion to build it from, and the optional values
    /// that must all be present to use it (none for the last, which always applies).
    struct Link {
        var pattern: RoutePattern
        var requiredOptionals: [TypedRouteCase.Parameter]
    }

    /// App schemes, lowercased; the first builds the canonical link of path-only patterns.
    let schemes: [String]
    /// Web domains, lowercased; the first builds it when there is no scheme.
    let domains: [String]
    /// One case per route, in route order.
    let cases: [TypedRouteCase]

    /// Types every route and names its case.
    /// - Throws: ``CodegenError`` for a pattern that does not parse, or a path-only route
    ///   without any scheme or domain to link to.
    init(routes: [Route], schemes: [String], domains: [String], naming: Naming) throws(CodegenError) {
        self.schemes = schemes.map { $0.lowercased() }
        self.domains = domains.map { $0.lowercased() }
        var used = naming.reservedCaseNames
        var cases: [TypedRouteCase] = []
        for route in routes {
            let name = CodegenIdentifier.unique(naming.caseName(route.id), in: &used)
            let typed = try TypedRouteCase(route: route, name: name, reservedLabels: naming.reservedLabels)
            if typed.canonical.contains(where: { $0.scheme == nil }), schemes.isEmpty, domains.isEmpty {
                throw CodegenError(
                    message: "route '\(route.id)' has a path-only pattern but switchboard.yaml lists no `schemes` "
                        + "or `domains` to build its link with")
            }
            cases.append(typed)
        }
        self.cases = cases
    }

    /// The links `url` tries for a case, in order: the longest expansion whose optional values
    /// are all present wins.
    func links(_ typed: TypedRouteCase) -> [Link] {
        var links: [Link] = []
        for (index, expansion) in typed.canonical.enumerated() {
            let optionals = typed.parameters.filter { $0.isOptional && expansion.parameterNames.contains($0.key) }
            if optionals.isEmpty || index == typed.canonical.count - 1 {
                links.append(Link(pattern: expansion, requiredOptionals: []))
                break
            }
            links.append(Link(pattern: expansion, requiredOptionals: optionals))
        }
        return links
    }

    /// What a canonical link starts with: the pattern's own scheme (and host), else the first
    /// app scheme, else `https://` and the first domain. Path segments follow it, `/`-separated.
    func linkPrefix(_ pattern: RoutePattern) -> String {
        if let scheme = pattern.scheme, let host = pattern.host { return "\(scheme)://\(host)/" }
        if let scheme = pattern.scheme ?? schemes.first { return "\(scheme)://" }
        return "https://\(domains.first ?? "")/"
    }
}
