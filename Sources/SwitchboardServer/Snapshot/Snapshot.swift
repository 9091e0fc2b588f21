import Atomics
import Foundation
import SwitchboardCore
import SwitchboardStore
import Synchronization

/// One consistent view of everything a request needs: the resolver built from the config
/// directory and the admin state, plus what it was built from. Immutable; a reload, an admin
/// change or a store sync builds a new one, and ``SnapshotHolder`` swaps it in whole.
///
/// The route definitions of the config are not kept: the router holds every route once, and
/// ``config`` keeps each route file's path and module with an empty `routes` list (see
/// ``routeFiles`` for the counts). A change of admin rules alone reuses the router.
package final class Snapshot: Sendable, AtomicReference {
    /// Where the routes of a route file sit in ``Resolver/router``'s routes.
    package struct RouteFileSummary: Sendable, Hashable {
        /// Path relative to the config directory, e.g. `routes.d/product.yaml`.
        package let path: String
        package let module: String
        /// The routes of this file are `router.routes[firstRoute..<firstRoute + routeCount]`.
        package let firstRoute: Int
        package let routeCount: Int
    }

    /// Collects ``RouteFileSummary`` values file after file.
    private struct RouteFileSummaries {
        private(set) var list: [RouteFileSummary] = []
        private var total = 0

        mutating func append(path: String, module: String, routeCount: Int) {
            list.append(RouteFileSummary(path: path, module: module, firstRoute: total, routeCount: routeCount))
            total += routeCount
        }
    }

    package let resolver: Resolver
    /// The config directory the snapshot was built from, without its route definitions.
    package let config: ConfigDirectory
    package let admin: AdminState
    /// The route files, in load order; their routes come first in the router.
    package let routeFiles: [RouteFileSummary]
    /// How many routes come from route files (the first ones of the router).
    package let configRouteCount: Int
    package let builtAt: Date
    /// Where `GET /open` may redirect (from `redirect_allow`, `redirect_allow_http`, `schemes`).
    package let redirectPolicy: RedirectPolicy
    private let components: Mutex<AppLinkComponents?>
    /// Finished `GET /resolve` answers computed from this snapshot (dies with it).
    let resolveCache: ResolveCache
    /// What this snapshot's answers depend on besides the URL (worked out once: it walks
    /// every rule).
    let contextDependence: Resolver.ContextDependence

    init(
        resolver: Resolver, config: ConfigDirectory, admin: AdminState, routeFiles: [RouteFileSummary],
        configRouteCount: Int, components: AppLinkComponents?
    ) {
        self.resolver = resolver
        self.redirectPolicy = RedirectPolicy(
            allowedHosts: config.settings.redirectAllow, allowHTTP: config.settings.redirectAllowHTTP,
            appSchemes: config.settings.schemes)
        self.config = config
        self.admin = admin
        self.routeFiles = routeFiles
        self.configRouteCount = configRouteCount
        self.components = Mutex(components)
        let contextDependence = resolver.contextDependence
        self.contextDependence = contextDependence
        self.resolveCache = ResolveCache(budgetBytes: config.settings.resolveCacheBytes, dependence: contextDependence)
        self.builtAt = Date()
    }

    /// The https patterns of the routes, in priority order, for the association files; worked
    /// out on first use (it parses every pattern again), then kept.
    package var appLinkComponents: AppLinkComponents {
        components.withLock { cached in
            if let cached { return cached }
            let made = AppLinkComponents(routes: resolver.router.routes, domains: config.settings.domains)
            cached = made
            return made
        }
    }

    /// The components when they were worked out already (reused when the routes do not change).
    private var cachedAppLinkComponents: AppLinkComponents? { components.withLock { $0 } }

    /// Whether the route `id` comes from a route file (not from the admin API).
    package func isConfigRoute(id: String) -> Bool {
        resolver.router.routeIndex(id: id).map { $0 < configRouteCount } ?? false
    }

    /// Builds a snapshot; all-or-nothing.
    /// - Throws: ``ConfigIssues`` naming the file (or admin state) and item of every problem.
    package static func build(config: ConfigDirectory, admin: AdminState) throws(ConfigIssues) -> Snapshot {
        let expected = config.routeFiles.reduce(0) { $0 + $1.file.routes.count }
        return try assemble(config: config, admin: admin, reusing: nil, expectedRouteCount: expected) { add in
            var summaries = RouteFileSummaries()
            for loaded in config.routeFiles {
                let routes = loaded.file.routes
                // By index: each definition is read in place, not copied first.
                for index in routes.indices {
                    add(routes[index].route(module: loaded.file.module), loaded.path)
                }
                summaries.append(path: loaded.path, module: loaded.file.module, routeCount: routes.count)
            }
            return summaries.list
        }.snapshot
    }

    /// Builds a snapshot from a config directory being read: the routes of each route file
    /// (made on the decoding threads) are registered as they arrive, while the rest is still
    /// decoded. Like ``build(config:admin:)`` otherwise; a broken file fails the whole build.
    /// - Parameter expectedRouteCount: about how many routes the route files hold (the tables
    ///   are sized for it; e.g. the running snapshot's count).
    /// - Returns: the snapshot, and what building needed and serving does not (the builder's
    ///   tables of every route), for the caller to free later, off a reload's critical path.
    /// - Throws: ``ConfigIssues`` naming the file (or admin state) and item of every problem.
    /// - Parameter previousRewriter: the running rewrite engine, whose unchanged rules are
    ///   taken as they are compiled.
    static func build(
        loading: ConfigDirectory.Loading<Route>, admin: AdminState, expectedRouteCount: Int,
        previousRewriter: RewriteEngine? = nil
    ) throws(ConfigIssues) -> (snapshot: Snapshot, leftovers: any Sendable) {
        guard loading.issues.isEmpty else {
            // No settings to build with: read the route files to the end, for their issues too.
            var issues = loading.issues
            for (_, feed) in loading.routeFeeds { issues += feed.receive { _ in }.issues }
            throw ConfigIssues(issues)
        }
        let built = try assemble(
            config: loading.config, admin: admin, reusing: nil, expectedRouteCount: expectedRouteCount,
            previousRewriter: previousRewriter
        ) { (add) throws(ConfigIssues) in
            var summaries = RouteFileSummaries()
            var issues: [ConfigIssue] = []
            for (path, feed) in loading.routeFeeds {
                let outcome = feed.receive { routes in
                    // Once a file is broken the build fails: the routes after it are only read.
                    guard issues.isEmpty else { return }
                    // By index: each route is read in place, not copied first.
                    for index in routes.indices { add(routes[index], path) }
                }
                issues += outcome.issues
                if let module = outcome.module {
                    summaries.append(path: path, module: module, routeCount: outcome.routeCount)
                }
            }
            guard issues.isEmpty else { throw ConfigIssues(issues) }
            return summaries.list
        }
        return (built.snapshot, built.builder)
    }

    /// This snapshot with another admin state: when the admin routes are the same, the router
    /// is reused and only the rules are built; otherwise the routes of the config are
    /// registered again from the router (their files are not read again).
    /// - Throws: ``ConfigIssues``, as ``build(config:admin:)``.
    package func replacingAdminState(with admin: AdminState) throws(ConfigIssues) -> Snapshot {
        if admin.routes == self.admin.routes {
            return try Self.assemble(
                config: config, admin: admin, reusing: resolver.router, expectedRouteCount: configRouteCount,
                components: cachedAppLinkComponents, previousRewriter: resolver.rewriter
            ) { _ in routeFiles }.snapshot
        }
        let routes = resolver.router.routes
        return try Self.assemble(
            config: config, admin: admin, reusing: nil, expectedRouteCount: configRouteCount,
            previousRewriter: resolver.rewriter
        ) { add in
            for file in routeFiles {
                for index in file.firstRoute..<file.firstRoute + file.routeCount {
                    add(routes[index], file.path)
                }
            }
            return routeFiles
        }.snapshot
    }

    /// Registers the config routes (`addConfigRoutes` calls `add(route, file)` for each, in
    /// file order, and returns where each file's routes are), then the admin routes and all
    /// rules, and maps every issue to its origin. The snapshot keeps `config` with each route
    /// file's path and module only. Returns the builder too, for callers that free it later.
    private static func assemble(
        config: ConfigDirectory, admin: AdminState, reusing router: Router?, expectedRouteCount: Int,
        components: AppLinkComponents? = nil, previousRewriter: RewriteEngine? = nil,
        addConfigRoutes: (_ add: (Route, String) -> Void) throws(ConfigIssues) -> [RouteFileSummary]
    ) throws(ConfigIssues) -> (snapshot: Snapshot, builder: ResolverBuilder) {
        let settings = config.settings
        let policy = AppLinkPolicy(schemes: settings.schemes, domains: settings.domains)
        var builder =
            router.map { ResolverBuilder(reusing: $0, policy: policy, fallback: settings.fallback) }
            ?? ResolverBuilder(policy: policy, fallback: settings.fallback, maximumRoutes: settings.limits.maxRoutes)
        // Where each route issue of `builder` comes from, in order: the file of the refused
        // definition, and for a repeated id the file of its first definition. The file of an
        // accepted route is found from its index; refused ids are remembered (rare).
        var routeIssueOrigins: [(file: String, firstFile: String?)] = []
        var acceptedEnds: [(end: Int, file: String)] = []
        var refusedFileByID: [String: String] = [:]
        func fileOfAcceptedRoute(_ index: Int) -> String? {
            acceptedEnds.first { index < $0.end }?.file
        }
        func add(_ route: Route, from file: String) {
            let before = builder.issues.count
            builder.add(route)
            let refused = builder.issues.count - before
            if refused == 0 {
                if acceptedEnds.last?.file == file {
                    acceptedEnds[acceptedEnds.count - 1].end += 1
                } else {
                    acceptedEnds.append((builder.routeCount, file))
                }
                return
            }
            let firstFile = builder.routeIndex(id: route.id).flatMap(fileOfAcceptedRoute) ?? refusedFileByID[route.id]
            if firstFile == nil { refusedFileByID[route.id] = file }
            routeIssueOrigins += repeatElement((file: file, firstFile: firstFile), count: refused)
        }
        if router == nil {
            builder.reserveCapacity(routes: expectedRouteCount + admin.routes.count)
        }
        let routeFiles = try addConfigRoutes { route, file in add(route, from: file) }
        let configRouteCount = router == nil ? builder.routeCount : routeFiles.reduce(0) { $0 + $1.routeCount }
        var config = config
        config.routeFiles = routeFiles.map {
            ConfigDirectory.LoadedRouteFile(path: $0.path, file: RouteFile(module: $0.module, routes: []))
        }
        if router == nil {
            for route in admin.routes {
                add(route.definition.route(module: route.module), from: "admin state")
            }
        }
        if let previousRewriter { builder.reuseCompiledRules(of: previousRewriter) }
        builder.add(rules: admin.rules)
        builder.add(rules: config.rewriteRules)
        do {
            let resolver = try builder.build()
            let snapshot = Snapshot(
                resolver: resolver, config: config, admin: admin, routeFiles: routeFiles,
                configRouteCount: configRouteCount, components: components)
            return (snapshot, builder)
        } catch {
            // `build()` reports the route issues first, in the order they were found.
            throw ConfigIssues(
                error.issues.enumerated().map { position, issue in
                    switch issue.subject {
                    case .route(let id):
                        let origin =
                            position < routeIssueOrigins.count ? routeIssueOrigins[position] : (file: "admin state", firstFile: nil)
                        let message = origin.firstFile.map { "\(issue.message) (first defined in \($0))" } ?? issue.message
                        return ConfigIssue(file: origin.file, item: id, message: message, code: issue.code)
                    case .rule(let index, let id):
                        let isAdmin = index < admin.rules.count
                        let message =
                            isAdmin
                            ? "admin rule #\(index): \(issue.message)"
                            : "rule #\(index - admin.rules.count): \(issue.message)"
                        return ConfigIssue(
                            file: isAdmin ? "admin state" : "rewrites.yaml", item: id, message: message, code: issue.code)
                    case .fallback:
                        return ConfigIssue(file: "switchboard.yaml", item: "fallback", message: issue.message, code: issue.code)
                    }
                })
        }
    }
}
