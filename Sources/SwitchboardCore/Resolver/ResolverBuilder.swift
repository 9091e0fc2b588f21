/// Assembles a ``Resolver`` from routes, rules and settings, collecting every problem
/// instead of stopping at the first: config checks and reloads report them all.
public struct ResolverBuilder: Sendable {
    /// A problem with one route, one rule or the fallback.
    public struct Issue: Sendable, Hashable, CustomStringConvertible {
        /// What the issue is about.
        public enum Subject: Sendable, Hashable {
            case route(id: String)
            case rule(index: Int, id: String)
            case fallback
        }
        /// The route, rule or fallback at fault.
        public let subject: Subject
        /// A stable code: `conflict` and `duplicate_id` (a clash with what exists), or a
        /// validation code such as `invalid_pattern`, `invalid_regex`, `invalid_template`.
        public let code: String
        /// What is wrong and how to fix it.
        public let message: String

        /// Whether the problem is a clash with another route or rule (HTTP 409) rather than
        /// invalid input (HTTP 400).
        public var isConflict: Bool { code == "conflict" || code == "duplicate_id" }

        public var description: String {
            switch subject {
            case .route(let id): "route '\(id)': \(message)"
            case .rule(let index, let id): "rule #\(index) '\(id)': \(message)"
            case .fallback: "fallback: \(message)"
            }
        }
    }

    private var routes = RouterBuilder()
    /// A router built before, reused as it is (only the rules or the fallback change).
    private var prebuiltRouter: Router?
    private var rules: [RewriteRule] = []
    /// An engine whose unchanged rules ``build()`` takes as they are compiled.
    private var previousRewriter: RewriteEngine?
    private var policy: AppLinkPolicy
    private var fallback: String?
    /// Problems found so far.
    public private(set) var issues: [Issue] = []

    /// - Parameters:
    ///   - policy: which URLs are app links.
    ///   - fallback: template for unmatched URLs (rewrite-target variables, no groups).
    ///   - maximumRoutes: refuse more routes than this.
    public init(policy: AppLinkPolicy, fallback: String? = nil, maximumRoutes: Int = 1_000_000) {
        self.policy = policy
        self.fallback = fallback
        self.routes = RouterBuilder(maximumRoutes: maximumRoutes)
    }

    /// A builder that keeps `router` as it is, for a change of rules alone: nothing about the
    /// routes is parsed, checked or copied again. ``add(_:)`` must not be called on it.
    /// - Parameters:
    ///   - router: the route table to reuse.
    ///   - policy: which URLs are app links.
    ///   - fallback: template for unmatched URLs.
    public init(reusing router: Router, policy: AppLinkPolicy, fallback: String? = nil) {
        self.policy = policy
        self.fallback = fallback
        self.prebuiltRouter = router
    }

    /// The registration index of the accepted route `id` (routes are numbered from 0 in the
    /// order they were accepted), or `nil`.
    public func routeIndex(id: String) -> Int? {
        routes.routeIndex(id: id)
    }

    /// How many routes were accepted so far.
    public var routeCount: Int { prebuiltRouter?.routes.count ?? routes.count }

    /// Makes room for `count` more routes (large configs do not regrow the tables).
    public mutating func reserveCapacity(routes count: Int) {
        routes.reserveCapacity(count)
    }

    /// Registers a route; a refused route is recorded in ``issues``.
    public mutating func add(_ route: Route) {
        guard prebuiltRouter == nil else {
            issues.append(
                Issue(
                    subject: .route(id: route.id), code: "invalid_route",
                    message: "routes cannot be added to a builder that reuses a router"))
            return
        }
        do {
            try routes.register(route)
        } catch {
            issues.append(Issue(subject: .route(id: route.id), code: error.kind.rawValue, message: error.message))
        }
    }

    /// Appends rules after those already added (admin rules first, then config rules).
    public mutating func add(rules more: [RewriteRule]) {
        rules += more
    }

    /// Lets ``build()`` take the rules that `engine` has unchanged from it, compiled, instead of
    /// compiling them again (a running resolver's engine, when its rules change by a few).
    public mutating func reuseCompiledRules(of engine: RewriteEngine) {
        previousRewriter = engine
    }

    /// Builds the resolver.
    /// - Throws: every ``Issue`` found, when there is any.
    public func build() throws(ResolverBuildError) -> Resolver {
        var issues = issues
        var engine = RewriteEngine()
        do {
            if let previousRewriter {
                engine = try RewriteEngine(rules: rules, reusing: previousRewriter)
            } else {
                engine = try RewriteEngine(rules: rules)
            }
        } catch {
            for issue in error.issues {
                issues.append(
                    Issue(subject: .rule(index: issue.ruleIndex, id: issue.ruleID), code: issue.code.description, message: issue.message))
            }
        }
        var template: RewriteTemplate?
        if fallback?.isEmpty == true {
            issues.append(
                Issue(
                    subject: .fallback, code: "invalid_template",
                    message: "the fallback is empty; leave it out for no fallback, or give a URL template"))
        } else if let fallback {
            do {
                template = try RewriteTemplate(fallback, captureCount: nil)
            } catch {
                issues.append(Issue(subject: .fallback, code: "invalid_template", message: error.description))
            }
        }
        guard issues.isEmpty else { throw ResolverBuildError(issues: issues) }
        return Resolver(router: prebuiltRouter ?? routes.build(), rewriter: engine, policy: policy, fallback: template)
    }
}

/// Every problem found while building a ``Resolver``.
public struct ResolverBuildError: Error, Sendable, CustomStringConvertible {
    /// Every problem found, in the order of the input.
    public let issues: [ResolverBuilder.Issue]
    public var description: String { issues.map(\.description).joined(separator: "\n") }
}
