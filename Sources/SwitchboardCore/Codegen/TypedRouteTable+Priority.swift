extension TypedRouteTable {
    /// Every accepted expansion, in the order the router's depth-first walk reaches them:
    /// per segment static < int < uuid < regex (by text) < `:param` < `*`, then the more
    /// specific scheme/host restriction first. The generated parsers try them in this order and
    /// take the first that matches and converts, which is the router's backtracking.
    var candidates: [(typed: TypedRouteCase, pattern: RoutePattern)] {
        var all: [(typed: TypedRouteCase, pattern: RoutePattern)] = []
        for typed in cases { for pattern in typed.accepted { all.append((typed, pattern)) } }
        // A stable sort keeps registration order among patterns that can never both match.
        return all.enumerated().sorted { lhs, rhs in
            Self.precedes(lhs.element.pattern, rhs.element.pattern)
                || (!Self.precedes(rhs.element.pattern, lhs.element.pattern) && lhs.offset < rhs.offset)
        }.map(\.element)
    }

    private static func rank(_ segment: PatternSegment) -> (Int, String) {
        switch segment {
        case .literal(let text): (0, text)
        case .parameter(_, .int?): (1, "")
        case .parameter(_, .uuid?): (2, "")
        case .parameter(_, .regex(let text)?): (3, text)
        case .parameter(_, nil): (4, "")
        case .catchAll: (5, "")
        }
    }

    private static func precedes(_ lhs: RoutePattern, _ rhs: RoutePattern) -> Bool {
        for (left, right) in zip(lhs.segments, rhs.segments) {
            let (a, b) = (rank(left), rank(right))
            if a.0 != b.0 { return a.0 < b.0 }
            if a.1 != b.1 { return a.1 < b.1 }
        }
        if lhs.segments.count != rhs.segments.count { return lhs.segments.count < rhs.segments.count }
        return RoutePattern.specificity(scheme: lhs.scheme, host: lhs.host)
            > RoutePattern.specificity(scheme: rhs.scheme, host: rhs.host)
    }
}
