import SwitchboardCore
import SwitchboardStore

extension AdminState {
    /// Admin rules and routes whose answers show every JSON type, key order and characters
    /// that need escaping: what the stores must keep exactly, and a snapshot must serve.
    package static let sample = AdminState(
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
}
