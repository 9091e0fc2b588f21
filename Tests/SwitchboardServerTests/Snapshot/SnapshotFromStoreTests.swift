import Foundation
import SwitchboardCore
import SwitchboardStore
import SwitchboardTestSupport
import Testing

@testable import SwitchboardServer

/// A snapshot is built from what the file store saved.
struct SnapshotFromStoreTests {
    /// Admin rules and routes whose answers show key order and every JSON type.
    static let sample = AdminState(
        version: 7,
        rules: [
            RewriteRule(id: "promo", match: #"^shopapp://promo/(\d+)"#, target: "shopapp://venue/$1?from=$$url"),
            RewriteRule(id: "chain", match: "^shopapp://old/", target: "shopapp://new/", last: false),
        ],
        routes: [
            AdminRoute(
                module: "flash",
                definition: RouteDefinition(
                    id: "flash.sale", patterns: ["/flash/:id<int>", "https://shop.example.com/flash(/:id)"],
                    // Several keys, not in sorted order: a target is returned as it was given.
                    target: .object([
                        ("page", .string("FlashSale")), ("banner", .bool(true)), ("slots", .number(3)),
                        ("extra", .object([("z", .null), ("a", .array([.string("é \"q\" \\"), .number(-1.5)]))])),
                    ]),
                    params: ["source": "admin", "campaign": "spring"])),
            AdminRoute(module: "admin", definition: RouteDefinition(id: "plain", patterns: ["/plain"])),
            AdminRoute(
                module: "admin",
                definition: RouteDefinition(
                    id: "strings", patterns: ["/strings"],
                    target: .object([
                        ("controls", .string("tab\tnl\ncr\r\u{1}\u{7F}")), ("unicode", .string("€😀 ü")),
                        ("yamlish", .string("- [a]: {b} # c & *d ! |e")), ("numberish", .string("0012")),
                        ("boolish", .string("true")), ("nullish", .string("null")), ("empty", .string("")),
                        ("big", .number(12_345_678_901_234)), ("small", .number(1e-7)),
                    ]))),
        ])

    @Test func savedStateFeedsTheSnapshot() throws {
        let directory = try TemporaryDirectory()
        let store = FileAdminStore(directory: directory.path)
        try store.save(Self.sample)
        let config = try ConfigDirectory.load(from: Package.demoConfig)
        let snapshot = try Snapshot.build(config: config, admin: try store.load())
        let resolution = try snapshot.resolver.resolve("shopapp://flash/12")
        #expect(
            resolution.json.jsonText == """
                {"matched":true,"url":"shopapp://flash/12","routeId":"flash.sale","module":"flash",\
                "pattern":"/flash/:id<int>","target":{"page":"FlashSale","banner":true,"slots":3,\
                "extra":{"z":null,"a":["é \\"q\\" \\\\",-1.5]}},"params":{"campaign":"spring","source":"admin","id":"12"}}
                """)
        #expect(try snapshot.resolver.resolve("shopapp://promo/5").ruleIDs == ["promo"])
    }
}
