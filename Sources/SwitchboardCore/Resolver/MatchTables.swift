/// Everything the resolve pass reads (the rules, the app-link policy, the router's tables and the
/// fallback) in one object, which the pass and its closures reach through an unretained
/// reference.
///
/// Captured or copied as values, each of their arrays would be retained and released on every
/// request, and those reference counts are shared by every thread that resolves: each count
/// changed by one worker and then by another moves its cache line between cores. The stored
/// properties of an object are `let`, so reading them through a reference the caller
/// guarantees copies nothing. The arrays are the router's own (shared, not copied).
final class MatchTables: Sendable {
    let rewriter: RewriteEngine
    let policy: AppLinkPolicy
    let table: TrieTable
    let entries: [Router.Entry]
    let captures: [RouterBuilder.Capture]
    let routes: RouteList
    let fallback: RewriteTemplate?

    init(router: Router, rewriter: RewriteEngine, policy: AppLinkPolicy, fallback: RewriteTemplate?) {
        self.rewriter = rewriter
        self.policy = policy
        table = router.table
        entries = router.entries
        captures = router.captures
        routes = router.routes
        self.fallback = fallback
    }
}
