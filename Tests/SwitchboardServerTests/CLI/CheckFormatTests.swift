import Foundation
import SwitchboardTestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `switchboard check --format text|json|github|junit [--strict]`, run as a CI pipeline runs it:
/// each format names the broken file and the line and column of the fault.
@Suite(.blockingIO)
struct CheckFormatTests {
    /// A config whose second route file has an unknown key on line 6, column 5.
    static func brokenConfig() throws -> TemporaryDirectory {
        let config = try TemporaryDirectory()
        try config.write([
            "switchboard.yaml": "schemes: [myapp]\n",
            "routes.d/a.yaml": "module: a\nroutes:\n  - id: a\n    pattern: /a\n",
            "routes.d/x.yaml": "module: x\nroutes:\n  - id: ok\n    pattern: /ok\n  - id: b\n    patern: /b\n",
        ])
        return config
    }

    /// A valid config with one lint (two patterns that overlap through their constraints) on
    /// the route at line 5 of its file.
    static func lintedConfig() throws -> TemporaryDirectory {
        let config = try TemporaryDirectory()
        try config.write([
            "switchboard.yaml": "schemes: [app]\n",
            "routes.d/p.yaml": "module: p\nroutes:\n  - id: p.id\n    pattern: /p/:id<int>\n  - id: p.slug\n    pattern: /p/:slug\n",
        ])
        return config
    }

    static func check(_ config: borrowing TemporaryDirectory, _ arguments: [String]) throws -> CLITests.Run {
        let directory = try TemporaryDirectory()
        return try CLITests.run(["check", "--config", config.path] + arguments, in: directory)
    }

    @Test func textNamesTheFileLineAndColumn() throws {
        let config = try Self.brokenConfig()
        let run = try Self.check(config, ["--format", "text"])
        #expect(run.status == 1)
        #expect(run.stdout.contains("error: \(config.path)/routes.d/x.yaml:6:5: routes[1].patern: unknown key"), "\(run.stdout)")
    }

    @Test func jsonHasOneObjectPerFinding() throws {
        let config = try Self.brokenConfig()
        let run = try Self.check(config, ["--format", "json"])
        #expect(run.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(report["ok"] as? Bool == false)
        let findings = try #require(report["findings"] as? [[String: Any]])
        #expect(findings.count == 1, "\(run.stdout)")
        let finding = try #require(findings.first)
        #expect(finding["severity"] as? String == "error")
        #expect(finding["code"] as? String == "invalid_schema")
        #expect(finding["file"] as? String == "\(config.path)/routes.d/x.yaml")
        #expect(finding["line"] as? Int == 6)
        #expect(finding["column"] as? Int == 5)
        #expect((finding["message"] as? String)?.contains("unknown key 'patern'") == true)
    }

    @Test func githubAnnotatesTheFileAndLine() throws {
        let config = try Self.brokenConfig()
        let run = try Self.check(config, ["--format", "github"])
        #expect(run.status == 1)
        let commands = run.stdout.split(separator: "\n").filter { $0.hasPrefix("::") }
        #expect(commands.count == 1, "\(run.stdout)")
        #expect(
            commands.first?.hasPrefix("::error file=\(config.path)/routes.d/x.yaml,line=6,col=5,title=invalid_schema::routes[1].patern")
                == true, "\(run.stdout)")
    }

    @Test func junitHasOneTestCasePerFile() throws {
        let config = try Self.brokenConfig()
        let run = try Self.check(config, ["--format", "junit"])
        #expect(run.status == 1)
        #expect(run.stdout.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites "), "\(run.stdout)")
        #expect(run.stdout.components(separatedBy: "<testcase ").count - 1 == 3, "\(run.stdout)")
        #expect(run.stdout.contains(#"tests="3" failures="1""#), "\(run.stdout)")
        #expect(
            run.stdout.contains(
                #"<testcase classname="switchboard.check" name="\#(config.path)/routes.d/a.yaml" file="\#(config.path)/routes.d/a.yaml"/>"#)
        )
        let broken = try #require(run.stdout.range(of: #"name="\#(config.path)/routes.d/x.yaml""#), "\(run.stdout)")
        let failure = run.stdout[broken.upperBound...]
        #expect(failure.contains(#"<failure type="invalid_schema" message="6:5 [error invalid_schema] routes[1].patern"#), "\(run.stdout)")

        // Well-formed XML, as a test reporter reads it.
        let elements = ElementCounter()
        let parser = XMLParser(data: Data(run.stdout.utf8))
        parser.delegate = elements
        #expect(parser.parse(), "\(String(describing: parser.parserError))")
        #expect(elements.counts == ["testsuites": 1, "testsuite": 1, "testcase": 3, "failure": 1], "\(elements.counts)")
    }

    @Test func aYAMLSyntaxErrorIsLocated() throws {
        let config = try TemporaryDirectory()
        try config.write("routes.d/x.yaml", "module: x\nroutes:\n  - id: b\n    pattern: [/b\n")
        let run = try Self.check(config, ["--format", "github"])
        #expect(run.status == 1)
        #expect(run.stdout.hasPrefix("::error file=\(config.path)/routes.d/x.yaml,line=5,col=1,title=yaml_syntax::"), "\(run.stdout)")
    }

    @Test func aFindingAboutARuleHasTheRulesLine() throws {
        let config = try TemporaryDirectory()
        try config.write(
            "rewrites.yaml",
            """
            rules:
              - id: first
                match: '^myapp://old/(.*)'
                target: 'myapp://new/$1'
              - id: second
                match: '^myapp://old/(.*)'
                target: 'myapp://other/$1'
            """)
        let run = try Self.check(config, ["--format", "json"])
        #expect(run.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let finding = try #require((report["findings"] as? [[String: Any]])?.first, "\(run.stdout)")
        #expect(finding["code"] as? String == "unreachable_rule")
        #expect(finding["id"] as? String == "second")
        #expect(finding["file"] as? String == "\(config.path)/rewrites.yaml")
        #expect(finding["line"] as? Int == 5)
    }

    @Test func lintsFailOnlyWithStrict() throws {
        let config = try Self.lintedConfig()
        let relaxed = try Self.check(config, ["--format", "github"])
        #expect(relaxed.status == 0, "\(relaxed.stdout)")
        #expect(
            relaxed.stdout.hasPrefix("::warning file=\(config.path)/routes.d/p.yaml,line=5,col=5,title=constraint_overlap 'p.slug'::"),
            "\(relaxed.stdout)")

        let strict = try Self.check(config, ["--format", "github", "--strict"])
        #expect(strict.status == 1, "\(strict.stdout)")
        #expect(strict.stdout.hasPrefix("::error file="), "\(strict.stdout)")

        let json = try Self.check(config, ["--format", "json", "--strict"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(report["ok"] as? Bool == false)
        #expect((report["findings"] as? [[String: Any]])?.first?["severity"] as? String == "lint")

        let junit = try Self.check(config, ["--format", "junit"])
        #expect(junit.status == 0)
        #expect(junit.stdout.contains(#"failures="0""#) && junit.stdout.contains("<system-out>"), "\(junit.stdout)")
        let strictJUnit = try Self.check(config, ["--format", "junit", "--strict"])
        #expect(strictJUnit.status == 1)
        #expect(strictJUnit.stdout.contains(#"<failure type="constraint_overlap""#), "\(strictJUnit.stdout)")
    }

    @Test func anUnknownFormatIsAUsageError() throws {
        let config = try Self.lintedConfig()
        let run = try Self.check(config, ["--format", "xml"])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
    }
}

/// Counts the elements of an XML document by name.
final class ElementCounter: NSObject, XMLParserDelegate {
    var counts: [String: Int] = [:]

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        counts[name, default: 0] += 1
    }
}
