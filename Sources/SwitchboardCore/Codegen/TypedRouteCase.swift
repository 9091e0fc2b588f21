/// One case of the generated route enum: a route id, its typed parameters and the pattern
/// expansions that build and parse it.
struct TypedRouteCase {
    /// The Swift type of an associated value, from the parameter's constraint.
    enum ValueType: String {
        case int = "Int"
        case uuid = "UUID"
        case string = "String"
    }

    /// An associated value: named after the param, optional when an optional group holds it.
    struct Parameter {
        /// The param's name in the pattern (the key of the capture).
        var key: String
        /// The associated value's label.
        var label: String
        var type: ValueType
        /// The pattern's constraint (`int`, `uuid`, a regex) or `nil`.
        var constraint: ParameterConstraint?
        var isOptional: Bool
    }

    var routeID: String
    var name: String
    var parameters: [Parameter]
    /// The canonical pattern's expansions, longest first: `url` takes the first whose
    /// optional params are all present.
    var canonical: [RoutePattern]
    /// Every expansion `init?(url:)` accepts for this case.
    var accepted: [RoutePattern]
    /// Patterns of the route left out of `init?(url:)` because their params do not fit the case.
    var skipped: [String]

    /// Builds the case for a route, typing each param by the canonical (first) pattern.
    init(route: Route, name: String) throws(CodegenError) {
        routeID = route.id
        self.name = name
        var expansionsByPattern: [[RoutePattern]] = []
        for text in route.patterns {
            do {
                expansionsByPattern.append(try RoutePattern.parse(text))
            } catch {
                throw CodegenError(message: "route '\(route.id)': \(error.description)")
            }
        }
        canonical = expansionsByPattern.first ?? []
        var parameters: [Parameter] = []
        for expansion in canonical {
            for segment in expansion.segments {
                let key: String
                let type: ValueType
                var constraint: ParameterConstraint?
                switch segment {
                case .literal: continue
                case .parameter(let name, .int?): (key, type, constraint) = (name, .int, .int)
                case .parameter(let name, .uuid?): (key, type, constraint) = (name, .uuid, .uuid)
                case .parameter(let name, let other): (key, type, constraint) = (name, .string, other)
                case .catchAll(let name): (key, type) = (name, .string)
                }
                guard !parameters.contains(where: { $0.key == key }) else { continue }
                let everywhere = canonical.allSatisfy { $0.parameterNames.contains(key) }
                parameters.append(
                    Parameter(key: key, label: "", type: type, constraint: constraint, isOptional: !everywhere))
            }
        }
        var labels: Set<String> = []
        for index in parameters.indices {
            var label = SwiftIdentifier.camelCase(parameters[index].key)
            while !labels.insert(label).inserted { label += "_" }
            parameters[index].label = label
        }
        self.parameters = parameters
        accepted = canonical
        skipped = []
        for (offset, expansions) in expansionsByPattern.enumerated().dropFirst() {
            let fits = expansions.allSatisfy { expansion in
                let names = Set(expansion.parameterNames)
                return names.allSatisfy { name in parameters.contains { $0.key == name } }
                    && parameters.allSatisfy { $0.isOptional || names.contains($0.key) }
            }
            if fits { accepted += expansions } else { skipped.append(route.patterns[offset]) }
        }
    }
}
