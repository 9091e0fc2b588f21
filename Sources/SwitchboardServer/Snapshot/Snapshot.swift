import Foundation
import SwitchboardCore

/// One consistent view of everything a request needs: the resolver built from the config
/// directory and the admin state, plus what it was built from. Immutable; the service swaps
/// the whole snapshot on reload or admin change.
public final class Snapshot: Sendable {
    public let resolver: Resolver
    public let config: ConfigDirectory
    public let admin: AdminState
    /// Ids of the routes that come from route files.
    public let configRouteIDs: Set<String>
    public let builtAt: Date
    /// Where `GET /open` may redirect (from `redirect_allow`, `redirect_allow_http`, `schemes`).
    public let redirectPolicy: RedirectPolicy
    /// The https patterns of the routes, in priority order, for the association files.
    public let appLinkComponents: AppLinkComponents
    /// Finished `GET /resolve` answers computed from this snapshot (dies with it).
    let resolveCache: ResolveCache

    init(resolver: Resolver, config: ConfigDirectory, admin: AdminState, configRouteIDs: Set<String>) {
        self.resolver = resolver
        self.redirectPolicy = RedirectPolicy(
            allowedHosts: config.settings.redirectAllow, allowHTTP: config.settings.redirectAllowHTTP,
            appSchemes: config.settings.schemes)
        self.appLinkComponents = AppLinkComponents(routes: resolver.router.routes, domains: config.settings.domains)
        self.config = config
        self.admin = admin
        self.configRouteIDs = configRouteIDs
        self.resolveCache = ResolveCache(
            budgetBytes: config.settings.resolveCacheBytes, dependence: resolver.contextDependence)
        self.builtAt = Date()
    }

    /// Builds a snapshot; all-or-nothing.
    /// - Throws: ``ConfigIssues`` naming the file (or admin state) and item of every problem.
    public static func build(config: ConfigDirectory, admin: AdminState) throws(ConfigIssues) -> Snapshot {
        let settings = config.settings
        var builder = ResolverBuilder(
            policy: AppLinkPolicy(schemes: settings.schemes, domains: settings.domains),
            fallback: settings.fallback, maximumRoutes: settings.limits.maxRoutes)
        var fileByRouteID: [String: String] = [:]
        // Where each route issue of `builder` comes from, in order: the file of the refused
        // definition, and for a repeated id the file of its first definition.
        var routeIssueOrigins: [(file: String, firstFile: String?)] = []
        func add(_ route: Route, from file: String) {
            let firstFile = fileByRouteID[route.id]
            if firstFile == nil { fileByRouteID[route.id] = file }
            let before = builder.issues.count
            builder.add(route)
            routeIssueOrigins += repeatElement((file: file, firstFile: firstFile), count: builder.issues.count - before)
        }
        for loaded in config.routeFiles {
            for definition in loaded.file.routes {
                add(definition.route(module: loaded.file.module), from: loaded.path)
            }
        }
        let configRouteIDs = Set(fileByRouteID.keys)
        for route in admin.routes {
            add(route.definition.route(module: route.module), from: "admin state")
        }
        builder.add(rules: admin.rules)
        builder.add(rules: config.rewriteRules)
        do {
            let resolver = try builder.build()
            return Snapshot(resolver: resolver, config: config, admin: admin, configRouteIDs: configRouteIDs)
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
