import Testing

@testable import SwitchboardCore

/// The naming and text rules both generators share, and where Swift and Kotlin differ: these
/// hold without a compiler, so they run everywhere (the codegen suites compile the output).
@Suite struct CodegenNamingTests {
    private static func route(_ id: String, _ pattern: String) -> Route {
        Route(id: id, module: "m", patterns: [pattern])
    }

    @Test(arguments: [
        ("product.detail", "productDetail", "ProductDetail"),
        ("marketing.mobile-web", "marketingMobileWeb", "MarketingMobileWeb"),
        ("2fa", "_2fa", "_2fa"),
        ("*", "rest", "Rest"),
        ("café.menu", "cafMenu", "CafMenu"),
    ])
    func camelCase(text: String, lower: String, upper: String) {
        #expect(CodegenIdentifier.lowerCamelCase(text) == lower)
        #expect(CodegenIdentifier.upperCamelCase(text) == upper)
    }

    @Test func kotlinClassesAvoidTheNamesTheGeneratedClassUses() throws {
        let routes = [
            Self.route("string", "/s"), Self.route("companion", "/c"), Self.route("order.list", "/o"),
            Self.route("order-list", "/ol"), Self.route("app.route", "/a"),
            Self.route("keywords", "/k/:in/:url/:field/:encode-path/:when-done"),
        ]
        let table = try KotlinRouteClassGenerator(schemes: ["app"], domains: []).typedTable(routes)
        #expect(table.cases.map(\.name) == ["String_", "Companion_", "OrderList", "OrderList_", "AppRoute_", "Keywords"])
        #expect(table.cases[5].parameters.map(\.label) == ["in", "url_", "field_", "encodePath_", "whenDone"])
        #expect(KotlinIdentifier.escaped("in") == "`in`")
        #expect(KotlinIdentifier.escaped("data") == "data")
    }

    @Test func swiftNamesAreUnchangedByTheKotlinRules() throws {
        let routes = [Self.route("url", "/u"), Self.route("string", "/s/:url/:in")]
        let cases = try SwiftRouteEnumGenerator(schemes: ["app"], domains: []).typedCases(routes)
        #expect(cases.map(\.name) == ["url_", "string"])
        #expect(cases[1].parameters.map(\.label) == ["url", "in"])
        #expect(SwiftIdentifier.escaped("in") == "`in`")
    }

    @Test func kotlinLiteralsAreNeverTemplates() {
        #expect(KotlinIdentifier.literal("a$b \"q\" \\ \n\u{1}") == #""a\$b \"q\" \\ \n\u0001""#)
    }

    @Test func literalSegmentsAreEncodedAsTheRuntimeEncodes() {
        #expect(KotlinRouteClassGenerator.percentEncoded("café menu/x") == "caf%C3%A9%20menu%2Fx")
        #expect(KotlinRouteClassGenerator.percentEncoded("a-b._~!$&'()*+,;=:@") == "a-b._~!$&'()*+,;=:@")
    }

    @Test(arguments: [("com.example.shop", true), ("com..shop", false), ("com.2shop", false), ("shop", true), ("", false)])
    func kotlinPackageNames(name: String, valid: Bool) {
        #expect(KotlinIdentifier.isPackageName(name) == valid)
    }

    @Test func refusesNamesKotlinCannotUse() {
        #expect(throws: CodegenError.self) {
            try KotlinRouteClassGenerator(typeName: "when", schemes: ["app"], domains: []).generate(routes: [])
        }
        #expect(throws: CodegenError.self) {
            try KotlinRouteClassGenerator(packageName: "com.", schemes: ["app"], domains: []).generate(routes: [])
        }
    }
}
