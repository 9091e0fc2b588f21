import Foundation
import SwitchboardCore
import SwitchboardStore
import SwitchboardTestSupport
import Testing

@testable import SwitchboardServer

/// Admin changes build on the running snapshot: a change of rules alone reuses the router; a
/// change of admin routes registers the config routes again from the router (the snapshot does
/// not keep the route definitions).
@Suite struct SnapshotAdminChangeTests {
    static func demoSnapshot() throws -> Snapshot {
        try Snapshot.build(config: try ConfigDirectory.load(from: Repository.demoConfig.path), admin: AdminState())
    }

    @Test func ruleOnlyChangeReusesTheRouterAndKeepsRoutesWorking() throws {
        let before = try Self.demoSnapshot()
        var admin = before.admin
        admin.version += 1
        admin.rules = [RewriteRule(id: "sale", match: "^shopapp://sale$", target: "shopapp://product/7")]
        let after = try before.replacingAdminState(with: admin)

        // The very same route storage: nothing was registered again.
        #expect(after.resolver.router.routes.sharesStorage(with: before.resolver.router.routes))
        #expect(after.configRouteCount == before.configRouteCount)
        #expect(after.resolver.rewriter.rules.count == before.resolver.rewriter.rules.count + 1)
        let sale = try after.resolver.resolve("shopapp://sale")
        #expect(sale.ruleIDs == ["sale"])
        #expect(sale.match?.route.id == "product.detail")
        #expect(sale.params.first { $0.name == "id" }?.value == .string("7"))
        let product = try after.resolver.resolve("shopapp://product/42")
        #expect(product.match?.route == (try before.resolver.resolve("shopapp://product/42")).match?.route)
    }

    @Test func badRuleIsRefusedWithItsIndex() throws {
        let before = try Self.demoSnapshot()
        var admin = before.admin
        admin.rules = [RewriteRule(id: "broken", match: "(", target: "shopapp://x")]
        #expect {
            try before.replacingAdminState(with: admin)
        } throws: { error in
            let issues = (error as? ConfigIssues)?.issues ?? []
            return issues.count == 1 && issues[0].file == "admin state" && issues[0].item == "broken"
                && issues[0].message.hasPrefix("admin rule #0: ")
        }
    }

    @Test func adminRouteChangeRebuildsFromTheRouter() throws {
        let before = try Self.demoSnapshot()
        var admin = before.admin
        admin.routes = [AdminRoute(module: "flash", definition: RouteDefinition(id: "flash.sale", patterns: ["/flash/:day"]))]
        let after = try before.replacingAdminState(with: admin)
        #expect(after.configRouteCount == before.configRouteCount)
        #expect(after.resolver.router.routes.count == before.resolver.router.routes.count + 1)
        #expect(after.isConfigRoute(id: "product.detail"))
        #expect(!after.isConfigRoute(id: "flash.sale"))
        #expect(try after.resolver.resolve("shopapp://flash/monday").match?.route.id == "flash.sale")
        #expect(!after.resolver.router.routes.sharesStorage(with: before.resolver.router.routes))
        #expect(Array(after.resolver.router.routes.prefix(after.configRouteCount)) == Array(before.resolver.router.routes))

        // And back: removing it keeps every config route.
        let removed = try after.replacingAdminState(with: AdminState(version: 2))
        #expect(Array(removed.resolver.router.routes) == Array(before.resolver.router.routes))
        #expect(try removed.resolver.resolve("shopapp://flash/monday").matched == false)
    }

    @Test func adminRouteWithAConfigIDNamesTheFileOfTheFirstDefinition() throws {
        let before = try Self.demoSnapshot()
        let file = try #require(before.routeFiles.first { $0.routeCount > 0 })
        let id = before.resolver.router.routes[file.firstRoute].id
        var admin = before.admin
        admin.routes = [AdminRoute(module: "admin", definition: RouteDefinition(id: id, patterns: ["/elsewhere"]))]
        #expect {
            try before.replacingAdminState(with: admin)
        } throws: { error in
            let issues = (error as? ConfigIssues)?.issues ?? []
            return issues.count == 1 && issues[0].file == "admin state" && issues[0].item == id
                && issues[0].message.contains("first defined in \(file.path)")
        }
    }

    @Test func snapshotKeepsNoRouteDefinitions() throws {
        let config = try ConfigDirectory.load(from: Repository.demoConfig.path)
        let snapshot = try Snapshot.build(config: config, admin: AdminState())
        #expect(snapshot.config.routeFiles.map(\.path) == config.routeFiles.map(\.path))
        #expect(snapshot.config.routeFiles.allSatisfy { $0.file.routes.isEmpty })
        #expect(snapshot.routeFiles.map(\.routeCount) == config.routeFiles.map(\.file.routes.count))
        #expect(snapshot.configRouteCount == config.routeFiles.reduce(0) { $0 + $1.file.routes.count })
    }
}
