import Foundation
import SwitchboardTestSupport
import Testing

/// `switchboard diff`: the preview's report between two config directories, offline.
@Suite("switchboard diff", .blockingIO)
struct DiffCommandTests {
    /// A directory with `before/` (the demo config), `after/` (the demo config plus a rule that
    /// sends product pages to the Double 11 venue, without the cart routes) and `urls.txt`.
    static func directories() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        let manager = FileManager.default
        for name in ["before", "after"] {
            try manager.copyItem(atPath: Package.demoConfig, toPath: directory.path + "/" + name)
        }
        let rewrites = try String(contentsOfFile: Package.demoConfig + "/rewrites.yaml", encoding: .utf8)
        try directory.write(
            "after/rewrites.yaml",
            rewrites.replacingOccurrences(
                of: "rules:\n",
                with: "rules:\n  - { id: double11, match: '^shopapp://product/([0-9]+)$', target: 'shopapp://venue/double11' }\n"))
        try manager.removeItem(atPath: directory.path + "/after/routes.d/cart.yaml")
        try directory.write(
            "urls.txt",
            """
            # sampled links
            shopapp://product/42

            shopapp://product/7
            shopapp://cart
            shopapp://search/shoes
            """)
        return directory
    }

    @Test("exit 1 and the groups in text when URLs change; exit 0 when none does")
    func text() throws {
        let directory = try Self.directories()
        let changed = try CLITests.run(
            ["diff", "--config", "before", "--against", "after", "--urls", "urls.txt"], in: directory)
        #expect(changed.status == 1, "\(changed.stderr)")
        let lines = changed.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first?.hasPrefix("4 URLs (4 distinct): 3 change (") == true, "\(changed.stdout)")
        #expect(changed.stdout.contains("added double11; removed cart.view"), "\(changed.stdout)")
        #expect(changed.stdout.contains("  2  200 product.detail -> 200 marketing.venue  rules: double11\n"), "\(changed.stdout)")
        #expect(changed.stdout.contains("     shopapp://product/42\n     shopapp://product/7\n"), "\(changed.stdout)")
        #expect(changed.stdout.contains("newly unmatched: 1\n  shopapp://cart\n"), "\(changed.stdout)")

        let same = try CLITests.run(["diff", "--config", "before", "--against", "before", "--urls", "urls.txt"], in: directory)
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        #expect(same.stdout.hasPrefix("4 URLs (4 distinct): 0 change"), "\(same.stdout)")
        #expect(same.stdout.contains("change: no rule or route differs"))
    }

    @Test("--format json is the preview's report without its version")
    func json() throws {
        let directory = try Self.directories()
        let run = try CLITests.run(
            [
                "diff", "--config", "before", "--against", "after", "--urls", "urls.txt", "--format", "json", "--examples", "1",
                "--platform", "ios",
            ],
            in: directory)
        #expect(run.status == 1, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(report["version"] == nil)
        let change = try #require(report["change"] as? [String: [String]])
        #expect(change["added"] == ["double11"] && change["removed"]?.first == "cart.view")
        #expect((report["sample"] as? [String: Any])?["changed"] as? Int == 3)
        let groups = try #require(report["groups"] as? [[String: Any]])
        #expect(groups.map { $0["count"] as? Int } == [2, 1])
        let examples = try #require(groups.first?["examples"] as? [[String: Any]])
        #expect(examples.count == 1 && examples.first?["platform"] as? String == "ios")
        #expect((report["newlyUnmatched"] as? [String: Any])?["count"] as? Int == 1)
    }

    @Test("exit 2 with a clear message for a config that does not load or a URL file that cannot be read")
    func badInput() throws {
        let directory = try Self.directories()
        try directory.write("broken/routes.d/x.yaml", "module: x\nroutes: [{ id: a, patern: /a }]\n")
        let broken = try CLITests.run(["diff", "--config", "before", "--against", "broken", "--urls", "urls.txt"], in: directory)
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("--against broken does not load") && broken.stderr.contains("patern"), "\(broken.stderr)")
        let missing = try CLITests.run(["diff", "--config", "before", "--against", "after", "--urls", "nope.txt"], in: directory)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot read the URL file nope.txt"), "\(missing.stderr)")
        let platform = try CLITests.run(
            ["diff", "--config", "before", "--against", "after", "--urls", "urls.txt", "--platform", "tv"], in: directory)
        #expect(platform.status != 0 && platform.status != 1)
    }
}
