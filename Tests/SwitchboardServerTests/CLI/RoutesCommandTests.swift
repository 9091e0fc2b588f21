import Foundation
import SwitchboardTestSupport
import Testing

/// `switchboard routes`: the full table from the command line.
@Suite("switchboard routes", .blockingIO)
struct RoutesCommandTests {
    @Test("the table lists every config route with its module, patterns and source")
    func table() throws {
        let run = try CLITests.run(["routes", "--config", Package.demoConfig], in: try TemporaryDirectory())
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("ID") == true)
        #expect(lines.count == 1 + 36, "\(run.stdout)")
        let cart = try #require(lines.first { $0.hasPrefix("cart.add ") })
        #expect(cart.contains("/cart/add/:productId<int>(/:quantity<int>)") && cart.hasSuffix("routes.d/cart.yaml"))
    }

    @Test("json rows, filtered by module and id prefix")
    func json() throws {
        let directory = try TemporaryDirectory()
        let run = try CLITests.run(
            ["routes", "--config", Package.demoConfig, "--module", "cart", "--prefix", "cart.", "--format", "json"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        #expect(!rows.isEmpty)
        #expect(rows.allSatisfy { $0["module"] as? String == "cart" && ($0["id"] as? String)?.hasPrefix("cart.") == true })
        #expect(rows.allSatisfy { $0["source"] as? String == "routes.d/cart.yaml" && $0["target"] is [String: Any] })
    }

    @Test("a config that does not load is exit 2")
    func brokenConfig() throws {
        let directory = try TemporaryDirectory()
        try directory.write("config/routes.d/x.yaml", "module: x\nroutes: [{ id: a, patern: /a }]\n")
        let run = try CLITests.run(["routes", "--config", directory.path + "/config"], in: directory)
        #expect(run.status == 2)
        #expect(run.stderr.contains("patern"))
    }
}
