import Foundation
import SwitchboardTestSupport

/// The config with every param kind that both codegen tests generate from, and the links
/// whose route (or none) the generated parsers must agree on with the resolver.
enum CodegenFixtures {
    /// `switchboard.yaml` of the config with every param kind.
    static let kindsSettings = "schemes: [kindapp, kind2]\ndomains: [kinds.example.com]\n"
    /// Its routes: every constraint, optional groups, catch-alls, keywords and names the
    /// generated types keep for themselves, priority and backtracking, scheme and host (and
    /// port) restrictions, a second pattern, a non-ASCII literal.
    static let kindsRoutes: [(id: String, pattern: String)] = [
        ("static.page", "/static/page"),
        ("number", "/n/:id<int>"),
        ("identifier", "/u/:id<uuid>"),
        ("coded", "/r/:code<[A-Z]{2}[0-9]{2}>"),
        ("dollar", "/d/:tag<[a-z$]+>"),
        ("plain", "/p/:name"),
        ("files", "/files/*path"),
        ("optional", "/opt/:a<int>(/:b)(/x/:c<uuid>)"),
        ("keywords", "/kw/:in/:object/:fun<int>/:url/:field/:when-done"),
        ("string", "/string/:value"),
        ("companion", "/companion"),
        ("2fa", "/2fa"),
        ("order.list", "/orders"),
        ("order-list", "/order-list"),
        ("bt.static", "/bt/a/b"),
        ("bt.param", "/bt/:x/c"),
        ("prio.static", "/prio/new"),
        ("prio.int", "/prio/:id<int>"),
        ("prio.uuid", "/prio/:id<uuid>"),
        ("prio.regex", "/prio/:code<[a-z]{3}>"),
        ("prio.param", "/prio/:slug"),
        ("prio.rest", "/prio/*rest"),
        ("scheme.only", "kind2://only/:id<int>"),
        ("scheme.any", "/only/:id<int>"),
        ("web.only", "https://kinds.example.com/web/:slug"),
        ("web.port", "https://kinds.example.com:8443/port/:x"),
        ("web.any-port", "https://kinds.example.com/ports/:x"),
        ("web.one-port", "https://kinds.example.com:8443/ports/:x"),
        ("multi", "[/multi/:id<int>, /legacy/multi/:id]"),
        ("unicode", "/café/:x"),
    ]

    /// Links whose route (or none) `parse` must agree on with the resolver.
    static let kindsProbes = [
        "kindapp://n/42", "kindapp://n/-42", "kindapp://n/+42", "kindapp://n/0042", "kindapp://n/9223372036854775807",
        "kindapp://n/9223372036854775808", "kindapp://n/00000000000000000042", "kindapp://n/%D9%A4%D9%A2", "kindapp://n/4%32",
        "kindapp://u/3F2504E0-4F89-41D3-9A0C-0305E82C3301", "kindapp://u/3f2504e0-4f89-41d3-9a0c-0305e82c3301",
        "kindapp://u/1-1-1-1-1", "kindapp://r/AB12", "kindapp://r/ab12", "kindapp://d/a$b", "kindapp://p/caf%C3%A9",
        "kindapp://p/%zz", "kindapp://p/%C3%28", "kindapp://p/a%2Fb", "kindapp://p/%", "kindapp://files/a", "kindapp://files/a/b/c",
        "kindapp://files", "kindapp://files/a//b", "kindapp://opt/1", "kindapp://opt/1/b",
        "kindapp://opt/1/x/3f2504e0-4f89-41d3-9a0c-0305e82c3301", "kindapp://opt/1/b/x/3f2504e0-4f89-41d3-9a0c-0305e82c3301",
        "kindapp://opt/1/x/nope", "kindapp://bt/a/c", "kindapp://bt/a/b", "kindapp://prio/new", "kindapp://prio/42",
        "kindapp://prio/3f2504e0-4f89-41d3-9a0c-0305e82c3301", "kindapp://prio/abc", "kindapp://prio/abcd", "kindapp://prio/a/b",
        "kindapp://only/5", "kind2://only/5", "KINDAPP://only/5", "https://kinds.example.com/web/x",
        "https://KINDS.example.com:443/web/x", "http://kinds.example.com/web/x", "https://kinds.example.com/n/5",
        "https://user@kinds.example.com/n/5", "https://other.example.com/n/5", "kindapp://multi/5", "kindapp://legacy/multi/5",
        "kindapp://n/42?x=1#frag", "kindapp://n/42#f", "otherapp://n/42", "kindapp:/n/42", "kindapp://", "kindapp://n/42/",
        "kindapp://caf%C3%A9/x", "kindapp://cafe%CC%81/x", "kindapp://cafe\u{301}/x", "kindapp://string/s", "kindapp://companion",
        "kindapp://2fa", "kindapp:n/42",
        "https://kinds.example.com:8443/n/5", "https://kinds.example.com:8443/port/x", "https://kinds.example.com/port/x",
        "https://kinds.example.com:443/web/x", "https://kinds.example.com:/web/x", "http://kinds.example.com:8443/port/x",
        "https://kinds.example.com:8443/ports/x", "https://kinds.example.com/ports/x", "https://kinds.example.com:9443/ports/x",
    ]

    /// Writes the config to `kinds/` in `directory`; its path.
    static func writeKindsConfig(in directory: TemporaryDirectory) throws -> String {
        try directory.write(["kinds/switchboard.yaml": kindsSettings, "kinds/routes.d/kinds.yaml": routeFile(kindsRoutes)])
        return directory.url.appendingPathComponent("kinds").path
    }

    private static func routeFile(_ routes: [(id: String, pattern: String)]) -> String {
        var text = "module: kinds\nroutes:\n"
        for (id, pattern) in routes {
            let key = pattern.hasPrefix("[") ? "patterns" : "pattern"
            let value = pattern.hasPrefix("[") ? pattern : "'\(pattern)'"
            text += "  - id: '\(id)'\n    \(key): \(value)\n    target: { page: P }\n"
        }
        return text
    }
}
