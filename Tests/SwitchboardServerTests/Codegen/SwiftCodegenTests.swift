import Foundation
import SwitchboardTestSupport
import Testing

@testable import SwitchboardCore
@testable import SwitchboardServer

/// `switchboard codegen swift`: the generated enum compiles on its own (Swift 6 mode, Foundation
/// only), every route round-trips through `url` and `init?(url:)`, each canonical link goes
/// to the same route in the real resolver, and `init?(url:)` agrees with the resolver on the
/// probe links of ``CodegenFixtures`` (as the Kotlin parser must).
@Suite(.serialized, .blockingIO)
struct SwiftCodegenTests {
    /// A value the param accepts, per its type and constraint.
    private static func sample(_ parameter: TypedRouteCase.Parameter, index: Int) -> String {
        switch parameter.type {
        case .int: return String(40 + index)
        case .uuid: return "UUID(uuidString: \"3F2504E0-4F89-41D3-9A0C-0305E82C330\(index % 10)\")!"
        case .string: break
        }
        let candidates = ["sample", "SAMPLE12", "card", "open", "sample_token_0123456789", "a b/c"]
        let chosen: String
        if case .regex(let source)? = parameter.constraint {
            chosen = candidates.first { (try? Regex(source).wholeMatch(in: $0)) != nil } ?? "sample"
        } else {
            // A catch-all gets two segments, so a single-segment route cannot take it.
            chosen = parameter.key == "path" || parameter.key == "*" ? "x/y%z" : "sam ple\(index)"
        }
        return SwiftIdentifier.literal(chosen)
    }

    /// `AppRoute.case(label: value, …)`, with or without the optional values.
    private static func construction(_ typed: TypedRouteCase, withOptionals: Bool) -> String {
        let arguments = typed.parameters.enumerated().compactMap { index, parameter -> String? in
            guard withOptionals || !parameter.isOptional else { return nil }
            return "\(SwiftIdentifier.escaped(parameter.label)): \(sample(parameter, index: index))"
        }
        return "AppRoute.\(SwiftIdentifier.escaped(typed.name))"
            + (typed.parameters.isEmpty ? "" : "(\(arguments.joined(separator: ", ")))")
    }

    @Test func generatedEnumCompilesAndRoundTripsEveryRoute() throws {
        let directory = try TemporaryDirectory()
        let generated = directory.url.appendingPathComponent("AppRoute.swift").path
        let run = try CLITests.run(
            ["codegen", "swift", "--config", Package.demoConfig, "--output", generated], in: directory)
        #expect(run.status == 0, "\(run.stderr)")

        let config = try ConfigDirectory.load(from: Package.demoConfig)
        let routes = config.routeFiles.flatMap { loaded in loaded.file.routes.map { $0.route(module: loaded.file.module) } }
        let cases = try SwiftRouteEnumGenerator(schemes: config.settings.schemes, domains: config.settings.domains)
            .typedCases(routes)
        #expect(cases.count == routes.count)

        var driver = """
            import Foundation

            func check(_ route: AppRoute, _ id: String) {
                let back = AppRoute(url: route.url)
                print("\\(back == route ? "ok" : "FAIL")\\t\\(id)\\t\\(route.url)")
            }
            func expect(_ url: String, _ expected: AppRoute?) {
                print("\\(AppRoute(url: url) == expected ? "ok" : "FAIL")\\tparse\\t\\(url)")
            }

            """
        for typed in cases {
            driver += "check(\(Self.construction(typed, withOptionals: true)), \(SwiftIdentifier.literal(typed.routeID)))\n"
            if typed.parameters.contains(where: \.isOptional) {
                driver += "check(\(Self.construction(typed, withOptionals: false)), \(SwiftIdentifier.literal(typed.routeID)))\n"
            }
        }
        driver += """
            expect("shopapp://product/42?ref=push", .productDetail(id: 42))
            expect("SHOPAPP://product/42", .productDetail(id: 42))
            expect("https://shop.example.com/cart.html", .cartView)
            expect("shopapp://auth/login", .userLogin)
            expect("shopapp://category/shoes/red", .searchCategoryPath(path: "shoes/red"))
            expect("shopapp://category/shoes", .searchCategory(slug: "shoes"))
            expect("shopapp://search/page/3", .searchResults(query: nil, page: 3))
            expect("shopapp://search/red%20shoes", .searchResults(query: "red shoes"))
            expect("shopapp://product/abc", nil)
            expect("otherapp://product/42", nil)
            expect("shopapp://no/such/route/here", nil)

            """
        try directory.write("main.swift", driver)

        let output = try Self.compileAndRun(generated, in: directory)
        #expect(output.status == 0)
        let lines = output.output.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(lines.count >= cases.count + 11)
        for line in lines where line.first != "ok" { Issue.record("\(line.joined(separator: " "))") }

        // Each canonical link goes to the same route in the real resolver.
        var builder = ResolverBuilder(policy: AppLinkPolicy(schemes: config.settings.schemes, domains: config.settings.domains))
        for route in routes { builder.add(route) }
        let resolver = try builder.build()
        for line in lines where line.count == 3 && line[1] != "parse" {
            let resolved = try resolver.resolve(line[2])
            #expect(resolved.match?.route.id == line[1], "\(line[2]) resolves to \(resolved.match?.route.id ?? "nothing")")
        }
    }

    @Test func parserAgreesWithTheResolverOnProbeLinks() throws {
        let directory = try TemporaryDirectory()
        let kinds = try CodegenFixtures.writeKindsConfig(in: directory)
        let generated = directory.url.appendingPathComponent("AppRoute.swift").path
        let run = try CLITests.run(["codegen", "swift", "--config", kinds, "--output", generated], in: directory)
        #expect(run.status == 0, "\(run.stderr)")

        let config = try ConfigDirectory.load(from: kinds)
        let routes = config.routeFiles.flatMap { loaded in loaded.file.routes.map { $0.route(module: loaded.file.module) } }
        let cases = try SwiftRouteEnumGenerator(schemes: config.settings.schemes, domains: config.settings.domains)
            .typedCases(routes)
        var driver = "func id(_ route: AppRoute?) -> String {\n    switch route {\n    case nil: return \"-\"\n"
        for typed in cases {
            driver += "    case .\(SwiftIdentifier.escaped(typed.name))?: return \(SwiftIdentifier.literal(typed.routeID))\n"
        }
        driver += "    }\n}\n"
        for url in CodegenFixtures.kindsProbes {
            driver += "print(id(AppRoute(url: \(SwiftIdentifier.literal(url)))) + \"\\t\" + \(SwiftIdentifier.literal(url)))\n"
        }
        try directory.write("main.swift", driver)

        let output = try Self.compileAndRun(generated, in: directory)
        #expect(output.status == 0)

        var builder = ResolverBuilder(policy: AppLinkPolicy(schemes: config.settings.schemes, domains: config.settings.domains))
        for route in routes { builder.add(route) }
        let resolver = try builder.build()
        let lines = output.output.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(lines.count == CodegenFixtures.kindsProbes.count)
        for line in lines where line.count == 2 {
            // The resolver's answer for the link, or none (a malformed link is none too).
            let resolved = (try? resolver.resolve(line[1]))?.match?.route.id ?? "-"
            #expect(line[0] == resolved, "\(line[1]): Swift parses it as \(line[0]), the resolver as \(resolved)")
        }
    }

    @Test func refusesABadTypeName() throws {
        let directory = try TemporaryDirectory()
        let run = try CLITests.run(["codegen", "swift", "--config", Package.demoConfig, "--type-name", "2bad"], in: directory)
        #expect(run.status == 2)
        #expect(run.stderr.contains("not a Swift identifier"))
    }

    /// Compiles the generated file with the `main.swift` of `directory` (Swift 6 mode) and runs it.
    private static func compileAndRun(_ generated: String, in directory: TemporaryDirectory) throws -> (status: Int32, output: String) {
        let binary = directory.url.appendingPathComponent("driver").path
        let compile = try Subprocess.run(
            "/usr/bin/env",
            ["swiftc", "-swift-version", "6", "-Onone", "-o", binary, generated, directory.url.appendingPathComponent("main.swift").path])
        try #require(compile.status == 0, "the generated code does not compile:\n\(compile.output)")
        return try Subprocess.run(binary, [])
    }
}
