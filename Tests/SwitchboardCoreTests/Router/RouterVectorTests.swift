import Testing

@testable import SwitchboardCore

/// The router against `Fixtures/router-vectors.json`: priority, backtracking, decoding,
/// constraints, optional groups, scheme/host specificity and conflicts.
struct RouterVectorTests {
    struct Group: Decodable, CustomTestStringConvertible, Sendable {
        struct RouteSpec: Decodable, Sendable {
            var id: String
            var patterns: [String]
        }
        struct Case: Decodable, Sendable {
            var url: String
            var route: String?
            var captures: [String: String]?
            var error: String?
        }
        var name: String
        var routes: [RouteSpec]
        var cases: [Case]?
        var conflict: [String]?
        var registrationError: String?
        var testDescription: String { name }
    }

    static let groups: [Group] = (try? Fixtures.load("router-vectors")) ?? []

    /// The app-link rule used by every vector: scheme `myapp`, domain `shop.example.com`.
    static func isAppLink(_ url: ParsedURL) -> Bool {
        url.scheme == "myapp" || (url.isHTTP && url.host == "shop.example.com")
    }

    @Test func fixturesLoaded() {
        #expect(Self.groups.count >= 20)
        #expect(Self.groups.reduce(0) { $0 + ($1.cases?.count ?? 0) } >= 100)
    }

    @Test(arguments: groups)
    func vector(_ group: Group) throws {
        var builder = RouterBuilder()
        var failure: RouteRegistrationError?
        for spec in group.routes {
            do {
                try builder.register(Route(id: spec.id, module: "test", patterns: spec.patterns))
            } catch {
                failure = error
                break
            }
        }
        if let expected = group.conflict {
            let error = try #require(failure, "expected a conflict")
            #expect(error.kind == .conflict)
            #expect(error.routeID == expected[0])
            #expect(error.otherRouteID == expected[1])
            #expect(error.description.contains(expected[0]) && error.description.contains(expected[1]))
            return
        }
        if let expected = group.registrationError {
            #expect(failure?.kind.rawValue == expected)
            return
        }
        #expect(failure == nil)
        let router = builder.build()
        for vector in group.cases ?? [] {
            do {
                let url = try ParsedURL.parse(vector.url)
                let match = try router.match(url, isAppLink: Self.isAppLink(url))
                #expect(vector.error == nil, "\(vector.url) should fail with \(vector.error ?? "")")
                #expect(match?.route.id == vector.route, "\(vector.url)")
                if let expected = vector.captures, let match {
                    let captured = Dictionary(match.captures.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
                    #expect(captured == expected, "\(vector.url)")
                }
            } catch {
                #expect(vector.error == "invalid_url", "\(vector.url): unexpected \(error)")
            }
        }
    }
}
