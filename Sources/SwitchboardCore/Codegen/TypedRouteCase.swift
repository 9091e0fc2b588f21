/// One route as the generators see it, whatever the language: a route id, its typed
/// parameters and the pattern expansions that build and parse it (a case of the Swift enum,
/// a subclass of the Kotlin sealed class).
struct TypedRouteCase {
    /// The type of a value, from the parameter's constraint; each generator names it in its language.
    enum ValueType {
        /// `<int>`: a 64-bit integer.
        case int
        /// `<uuid>`: a UUID value.
        case uuid
        /// Anything else (a plain param, a regex, a catch-all): the decoded text.
        case string
    }

    /// A value of the case: named after the param, optional when an optional group holds it.
    struct Parameter {
        /// The param's name in the pattern (the key of the capture).
        var key: String
        /// The value's name in the generated code (the associated value's label, the property).
        var label: String
        var type: ValueType
        /// The pattern's constraint (`int`, `uuid`, a regex) or `nil`.
        var constraint: ParameterConstraint?
        var isOptional: Bool
    }

    var routeID: String
    /// The case's (or class's) name in the generated code.
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
    ///
    /// - Parameters:
    ///   - name: the case's name, already unique.
    ///   - reservedLabels: names a value cannot take because the generated type uses them.
    init(route: Route, name: String, reservedLabels: Set<String> = []) throws(CodegenError) {
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
        var labels = reservedLabels
        for index in parameters.indices {
            parameters[index].label = CodegenIdentifier.unique(CodegenIdentifier.lowerCamelCase(parameters[index].key), in: &labels)
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
