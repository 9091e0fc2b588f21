import SwitchboardCore
import SwitchboardStore
import Testing

@testable import SwitchboardServer

/// The comparison shared by `POST /admin/preview` and `switchboard diff`, and the reload's
/// candidate, without a server.
@Suite("Impact report")
struct ImpactReportTests {
    static let routes = [
        "shop.yaml": """
        module: shop
        routes:
          - { id: product.detail, pattern: "/product/:id<int>", target: { page: Product } }
          - { id: cart.view, pattern: /cart, target: { page: Cart } }
          - { id: venue, pattern: "/venue/:event", target: { page: Venue } }
        """
    ]

    /// The resolver of `config` without admin state.
    static func snapshot(_ config: TestConfig) throws -> Snapshot {
        try Snapshot.build(config: try ConfigDirectory.load(from: config.directory), admin: AdminState())
    }

    @Test("a reload's candidate is the directory on disk now, with the running admin state; the report groups its impact")
    func reloadCandidate() throws {
        let config = try TestConfig.minimal(routes: Self.routes)
        let running = try Self.snapshot(config)
        try config.write(
            "rewrites.yaml",
            """
            rules:
              - { id: double11, match: '^shopapp://product/([0-9]+)$', target: 'shopapp://venue/double11' }
              - { id: broken-cart, match: '^shopapp://cart$', target: 'shopapp://cart/%E9' }
            """)
        let sides = try CandidateSnapshot.reload(configDirectory: config.directory, running: running)
        #expect(sides.change.added == ["double11", "broken-cart"] && sides.change.removed.isEmpty)
        let sample = [
            SampledRequest(url: "shopapp://product/1"), SampledRequest(url: "shopapp://product/1"),
            SampledRequest(url: "shopapp://product/2", platform: "ios"), SampledRequest(url: "shopapp://cart"),
            SampledRequest(url: "shopapp://venue/x"),
        ]
        let report = ImpactReport.compare(
            sample, before: sides.running.resolver, after: sides.candidate.resolver, now: nil, examples: 5)
        #expect(report.urls == 5 && report.distinct == 4 && report.changed == 4)
        #expect(report.groups.map(\.count) == [3, 1])
        let captured = try #require(report.groups.first)
        #expect(captured.before == ImpactReport.Outcome(status: 200, routeID: "product.detail"))
        #expect(captured.after == ImpactReport.Outcome(status: 200, routeID: "venue") && captured.rules == ["double11"])
        #expect(captured.examples.map(\.request.url) == ["shopapp://product/1", "shopapp://product/2"])
        #expect(report.rules.map(\.id) == ["double11", "broken-cart"] && report.rules.map(\.count) == [3, 1])
        // The rewrite to an URL with invalid UTF-8 makes the cart a 400.
        #expect(report.newlyFailing.count == 1 && report.newlyFailing.examples.first?.request.url == "shopapp://cart")
        #expect(report.groups.last?.after.status == 400 && report.groups.last?.rules == ["broken-cart"])
        #expect(report.newlyUnmatched.count == 0)
        #expect(report.jsonMembers.map(\.key) == ["sample", "groups", "rules", "newlyFailing", "newlyUnmatched"])

        // A broken directory is the reload's 422, with every issue.
        try config.write("routes.d/broken.yaml", "module: broken\nroutes: [{ id: b, patern: /b }]\n")
        #expect {
            try CandidateSnapshot.reload(configDirectory: config.directory, running: running)
        } throws: { error in
            guard let error = error as? APIError else { return false }
            return error.status == 422 && error.code == "invalid_config" && error.issues.contains { $0.message.contains("patern") }
        }
    }

    @Test("the sampled context decides conditional rules; identical resolvers change nothing")
    func context() throws {
        let config = try TestConfig.minimal(routes: Self.routes)
        let before = try Self.snapshot(config).resolver
        try config.write(
            "rewrites.yaml",
            """
            rules:
              - { id: ios-only, match: '^shopapp://cart$', target: 'shopapp://venue/ios', when: { platform: [ios] } }
            """)
        let after = try Self.snapshot(config).resolver
        let sample = [SampledRequest(url: "shopapp://cart", platform: "ios"), SampledRequest(url: "shopapp://cart")]
        let report = ImpactReport.compare(sample, before: before, after: after, now: nil, examples: 5)
        #expect(report.changed == 1 && report.groups.first?.examples.first?.request.platform == "ios")
        #expect(ImpactReport.compare(sample, before: after, after: after, now: nil, examples: 5).changed == 0)
        #expect(ChangeSummary(from: before, to: after).added == ["ios-only"])
        #expect(ChangeSummary(from: after, to: after).isEmpty)
    }
}
