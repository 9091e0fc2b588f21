import Foundation
import SwitchboardTestSupport
import Testing

@testable import SwitchboardCore
@testable import SwitchboardServer

/// `switchboard codegen kotlin`: the generated sealed class compiles with `kotlinc` (warnings
/// are errors), every route round-trips through `url` and `parse`, typed values come out as
/// expected, and `parse` agrees with the real resolver on links that probe the matching rules.
///
/// Both configs (the demo and one with every param kind) are compiled in one `kotlinc` run with
/// one generated `main`, since a compile costs seconds. Without `kotlinc` the test is skipped
/// with a message, except in CI (`CI` set), where it fails: `scripts/install-test-deps.sh` installs
/// Debian's `kotlin`.
@Suite(.serialized, .blockingIO)
struct KotlinCodegenTests {
    /// `kotlinc` on `PATH`, or `nil`.
    static let kotlinc: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/kotlinc" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty && $0 != "false" } ?? false }

    /// Typed values `parse` must produce (Kotlin expressions in package `kinds`).
    static let kindsExpectations: [(url: String, expected: String)] = [
        ("kindapp://n/-42", "AppRoute.Number(-42L)"),
        (
            "kindapp://u/3F2504E0-4F89-41D3-9A0C-0305E82C3301",
            "AppRoute.Identifier(java.util.UUID.fromString(\"3f2504e0-4f89-41d3-9a0c-0305e82c3301\"))"
        ),
        ("kindapp://d/a$b", "AppRoute.Dollar(\"a\\$b\")"),
        ("kindapp://p/caf%C3%A9%20%2F", "AppRoute.Plain(\"café /\")"),
        ("kindapp://files/a/b%20c//d", "AppRoute.Files(\"a/b c/d\")"),
        (
            "kindapp://opt/7/x/3f2504e0-4f89-41d3-9a0c-0305e82c3301",
            "AppRoute.Optional(7L, null, java.util.UUID.fromString(\"3f2504e0-4f89-41d3-9a0c-0305e82c3301\"))"
        ),
        ("kindapp://opt/7/b", "AppRoute.Optional(7L, \"b\")"),
        (
            "kindapp://kw/i/o/3/u/f/w",
            "AppRoute.Keywords(`in` = \"i\", `object` = \"o\", `fun` = 3L, url_ = \"u\", field_ = \"f\", whenDone = \"w\")"
        ),
        ("kindapp://string/s", "AppRoute.String_(\"s\")"),
        ("kindapp://companion", "AppRoute.Companion_"),
        ("kindapp://2fa", "AppRoute._2fa"),
        ("kindapp://order-list", "AppRoute.OrderList_"),
        ("kindapp://bt/a/c", "AppRoute.BtParam(\"a\")"),
        ("kindapp://prio/a/b", "AppRoute.PrioRest(\"a/b\")"),
        ("kindapp://legacy/multi/5", "AppRoute.Multi(5L)"),
        ("kindapp://legacy/multi/abc", "null"),
        ("kindapp://n/42?x=1#frag", "AppRoute.Number(42L)"),
    ]

    /// The demo config's typed values, as the Swift enum's test expects them.
    static let demoExpectations: [(url: String, expected: String)] = [
        ("shopapp://product/42?ref=push", "AppRoute.ProductDetail(42L)"),
        ("SHOPAPP://product/42", "AppRoute.ProductDetail(42L)"),
        ("https://shop.example.com/cart.html", "AppRoute.CartView"),
        ("shopapp://auth/login", "AppRoute.UserLogin"),
        ("shopapp://category/shoes/red", "AppRoute.SearchCategoryPath(\"shoes/red\")"),
        ("shopapp://category/shoes", "AppRoute.SearchCategory(\"shoes\")"),
        ("shopapp://search/page/3", "AppRoute.SearchResults(null, 3L)"),
        ("shopapp://search/red%20shoes", "AppRoute.SearchResults(\"red shoes\")"),
        ("shopapp://product/abc", "null"),
        ("otherapp://product/42", "null"),
        ("shopapp://no/such/route/here", "null"),
    ]

    /// One generated config: its Kotlin package, typed table and resolver.
    struct Generated {
        var package: String
        var table: TypedRouteTable
        var resolver: Resolver
    }

    /// Generates `package` from the config at `config` with the command line, and types it for the driver.
    static func generate(config: String, package: String, into directory: TemporaryDirectory) throws -> Generated {
        let output = directory.url.appendingPathComponent("\(package).kt").path
        let run = try CLITests.run(
            ["codegen", "kotlin", "--config", config, "--package", package, "--output", output], in: directory)
        try #require(run.status == 0, "\(run.stderr)")
        let loaded = try ConfigDirectory.load(from: config)
        let routes = loaded.routeFiles.flatMap { file in file.file.routes.map { $0.route(module: file.file.module) } }
        let table = try KotlinRouteClassGenerator(schemes: loaded.settings.schemes, domains: loaded.settings.domains)
            .typedTable(routes)
        #expect(table.cases.count == routes.count)
        var builder = ResolverBuilder(policy: AppLinkPolicy(schemes: loaded.settings.schemes, domains: loaded.settings.domains))
        for route in routes { builder.add(route) }
        return Generated(package: package, table: table, resolver: try builder.build())
    }

    /// A value the param accepts, as a Kotlin expression.
    static func sample(_ parameter: TypedRouteCase.Parameter, index: Int, in typed: TypedRouteCase) -> String {
        switch parameter.type {
        case .int: return "\(40 + index)L"
        case .uuid: return "java.util.UUID.fromString(\"3f2504e0-4f89-41d3-9a0c-0305e82c330\(index % 10)\")"
        case .string: break
        }
        let isCatchAll = typed.canonical.contains { $0.segments.contains(.catchAll(name: parameter.key)) }
        let chosen: String
        if case .regex(let source)? = parameter.constraint {
            let candidates = ["sample", "SAMPLE12", "card", "open", "sample_token_0123456789", "AB12", "ab$c", "abc", "x"]
            chosen = candidates.first { (try? Regex(source).wholeMatch(in: $0)) != nil } ?? "no sample fits \(source)"
        } else {
            chosen = isCatchAll ? "x/y%z é" : "sam ple\(index) é%/$"
        }
        return KotlinIdentifier.literal(chosen)
    }

    /// `AppRoute.Class(label = value, …)`, with or without the optional values.
    static func construction(_ typed: TypedRouteCase, withOptionals: Bool) -> String {
        let arguments = typed.parameters.enumerated().compactMap { index, parameter -> String? in
            guard withOptionals || !parameter.isOptional else { return nil }
            return "\(KotlinIdentifier.escaped(parameter.label)) = \(sample(parameter, index: index, in: typed))"
        }
        return "AppRoute.\(KotlinIdentifier.escaped(typed.name))"
            + (typed.parameters.isEmpty ? "" : "(\(arguments.joined(separator: ", ")))")
    }

    /// The driver's part for one package: round trips, expectations and probes.
    static func driver(_ generated: Generated, expectations: [(url: String, expected: String)], probes: [String]) -> String {
        let package = generated.package
        var out = """
            object Driver_\(package) {
                private fun check(route: \(package).AppRoute, id: String) {
                    val back = \(package).AppRoute.parse(route.url)
                    println((if (back == route) "ok" else "FAIL") + "\\tcheck\\t\(package)\\t" + id + "\\t" + route.url)
                }

                private fun expect(url: String, expected: \(package).AppRoute?) {
                    val parsed = \(package).AppRoute.parse(url)
                    println((if (parsed == expected) "ok" else "FAIL") + "\\tparse\\t\(package)\\t" + url + "\\t" + parsed)
                }

                private fun id(route: \(package).AppRoute?): String = when (route) {
                    null -> "-"

            """
        for typed in generated.table.cases {
            out +=
                "            is \(package).AppRoute.\(KotlinIdentifier.escaped(typed.name)) -> \(KotlinIdentifier.literal(typed.routeID))\n"
        }
        out += "        }\n\n        fun run() {\n"
        for typed in generated.table.cases {
            let id = KotlinIdentifier.literal(typed.routeID)
            out += "            check(\(package).\(construction(typed, withOptionals: true)), \(id))\n"
            if typed.parameters.contains(where: \.isOptional) {
                out += "            check(\(package).\(construction(typed, withOptionals: false)), \(id))\n"
            }
        }
        for (url, expected) in expectations {
            let value = expected == "null" ? "null" : "\(package).\(expected)"
            out += "            expect(\(KotlinIdentifier.literal(url)), \(value))\n"
        }
        for url in probes {
            out +=
                "            println(\"probe\\t\(package)\\t\" + id(\(package).AppRoute.parse(\(KotlinIdentifier.literal(url)))) + \"\\t\" + \(KotlinIdentifier.literal(url)))\n"
        }
        out += "        }\n}\n\n"
        return out
    }

    @Test(.enabled("needs kotlinc (scripts/install-test-deps.sh installs Debian's kotlin)") { kotlinc != nil || isCI })
    func generatedClassCompilesAndRoundTripsEveryRoute() throws {
        let kotlinc = try #require(
            Self.kotlinc, "kotlinc is not on PATH: CI must install Debian's `kotlin` package (scripts/install-test-deps.sh)")
        let directory = try TemporaryDirectory()
        let kindsConfig = try CodegenFixtures.writeKindsConfig(in: directory)

        let demo = try Self.generate(config: Package.demoConfig, package: "demo", into: directory)
        let kinds = try Self.generate(config: kindsConfig, package: "kinds", into: directory)
        let demoProbes = Self.demoExpectations.map(\.url)
        var main = Self.driver(demo, expectations: Self.demoExpectations, probes: demoProbes)
        main += Self.driver(kinds, expectations: Self.kindsExpectations, probes: CodegenFixtures.kindsProbes)
        main += "fun main() {\n    Driver_demo.run()\n    Driver_kinds.run()\n}\n"
        try directory.write("Main.kt", main)

        let jar = directory.url.appendingPathComponent("driver.jar").path
        let sources = ["demo.kt", "kinds.kt", "Main.kt"].map { directory.url.appendingPathComponent($0).path }
        let compile = try Subprocess.run(kotlinc, ["-Werror", "-include-runtime", "-d", jar] + sources)
        try #require(compile.status == 0, "the generated code does not compile:\n\(compile.output)")
        let java = ProcessInfo.processInfo.environment["JAVA_HOME"].map { $0 + "/bin/java" } ?? "/usr/bin/java"
        let output = try Subprocess.run(java, ["-Dfile.encoding=UTF-8", "-Dsun.stdout.encoding=UTF-8", "-cp", jar, "MainKt"])
        #expect(output.status == 0, "\(output.output)")

        let lines = output.output.split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
        let resolvers = ["demo": demo.resolver, "kinds": kinds.resolver]
        var counts: [String: Int] = [:]
        for line in lines {
            counts[line[0] == "probe" ? "probe" : line[1], default: 0] += 1
            if line[0] == "FAIL" { Issue.record("Kotlin: \(line.joined(separator: " "))") }
            if line[0] != "ok" && line[0] != "probe" && line[0] != "FAIL" { Issue.record("unexpected output: \(line)") }
            guard line.count == 5 || line.count == 4, let resolver = resolvers[line[line[0] == "probe" ? 1 : 2]] else { continue }
            if line[0] == "probe" {
                // The resolver's answer for the link, or none (a malformed link is none too).
                let resolved = (try? resolver.resolve(line[3]))?.match?.route.id ?? "-"
                #expect(line[2] == resolved, "\(line[3]): Kotlin parses it as \(line[2]), the resolver as \(resolved)")
            } else if line[1] == "check" {
                let resolved = (try? resolver.resolve(line[4]))?.match?.route.id
                #expect(resolved == line[3], "\(line[4]) resolves to \(resolved ?? "nothing"), built by \(line[3])")
            }
        }
        let checks = [demo, kinds].reduce(0) { sum, generated in
            sum + generated.table.cases.reduce(0) { $0 + ($1.parameters.contains(where: \.isOptional) ? 2 : 1) }
        }
        #expect(counts["check"] == checks)
        #expect(counts["parse"] == Self.demoExpectations.count + Self.kindsExpectations.count)
        #expect(counts["probe"] == demoProbes.count + CodegenFixtures.kindsProbes.count)
    }

    @Test func refusesABadTypeOrPackageName() throws {
        let directory = try TemporaryDirectory()
        let badType = try CLITests.run(["codegen", "kotlin", "--config", Package.demoConfig, "--type-name", "when"], in: directory)
        #expect(badType.status == 2)
        #expect(badType.stderr.contains("not a Kotlin class name"))
        let badPackage = try CLITests.run(["codegen", "kotlin", "--config", Package.demoConfig, "--package", "com..shop"], in: directory)
        #expect(badPackage.status == 2)
        #expect(badPackage.stderr.contains("not a Kotlin package name"))
    }
}
