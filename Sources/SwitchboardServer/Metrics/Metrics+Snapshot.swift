import SwitchboardCore
import SwitchboardStore

extension Metrics {
    /// Sets the gauges that describe `snapshot`: routes, rules and the admin version. Writers
    /// call it before the swap, so that whoever sees the new snapshot served finds it counted.
    func recordSnapshot(_ snapshot: Snapshot) {
        recordSnapshot(
            routes: snapshot.resolver.router.routes.count, rules: snapshot.resolver.rewriter.rules.count,
            adminVersion: snapshot.admin.version)
    }
}
