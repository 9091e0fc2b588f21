import Testing

@testable import SwitchboardCore

/// The members of a matched answer that the route list writes once per module and per target
/// (``RouteList/writeAnswerMembers(at:pattern:to:)``), against the full path: modules and
/// targets that need escapes, shared by routes out of order, and a config whose routes changed
/// (targets, modules and order), as after an admin write.
struct ResolveBytesRouteMembersTests {
    static let modules = ["shop", "quote\"d", "back\\slash", "tab\there", "café €", ""]
    static let targets: [JSONValue] = [
        .object([("page", .string("Item"))]),
        .object([]),
        .object([("a", .array([.number(1), .number(-2.5), .bool(true), .null])), ("b", .string("line\nbreak \u{1}"))]),
        .string("plain \"target\""),
        .array([]),
        .number(42),
        .null,
    ]

    /// `count` routes `/rN/:id` (and `/alt/rN/:id` for every third), their module and target
    /// taken from the lists above with the strides `moduleStride` and `targetStride`.
    static func resolver(count: Int, moduleStride: Int, targetStride: Int, reversed: Bool) throws -> Resolver {
        var builder = ResolverBuilder(policy: AppLinkPolicy(schemes: ["app"], domains: []))
        var indices = Array(0..<count)
        if reversed { indices.reverse() }
        for index in indices {
            let patterns = index % 3 == 0 ? ["/r\(index)/:id", "/alt/r\(index)/:id"] : ["/r\(index)/:id"]
            builder.add(
                Route(
                    id: "route \"\(index)\"", module: modules[(index * moduleStride) % modules.count], patterns: patterns,
                    target: targets[(index * targetStride) % targets.count]))
        }
        return try builder.build()
    }

    static func check(_ resolver: Resolver, count: Int) throws {
        for index in 0..<count {
            for url in ["app://r\(index)/7?q=1", "app://alt/r\(index)/8"] where index % 3 == 0 || !url.contains("alt") {
                var body: [UInt8] = []
                let summary = try resolver.resolve(url, appendingBodyTo: &body)
                let reference = try resolver.resolve(url)
                #expect(String(decoding: body, as: UTF8.self) == reference.json.jsonText, "\(url)")
                #expect(body == reference.jsonBytes, "\(url)")
                #expect(summary.routeID == reference.match?.route.id, "\(url)")
                #expect(summary.matched, "\(url)")
            }
        }
    }

    @Test func membersAnswerAsTheFullPath() throws {
        try Self.check(Self.resolver(count: 30, moduleStride: 1, targetStride: 1, reversed: false), count: 30)
    }

    @Test func membersFollowARouteChange() throws {
        let before = try Self.resolver(count: 30, moduleStride: 1, targetStride: 1, reversed: false)
        let after = try Self.resolver(count: 30, moduleStride: 5, targetStride: 3, reversed: true)
        try Self.check(before, count: 30)
        try Self.check(after, count: 30)
    }
}
