extension Resolver {
    /// What besides the URL an answer of this resolver can depend on; a cache of answers must
    /// key on (or refuse) whatever is listed here.
    public struct ContextDependence: Sendable, Hashable {
        /// Some rule has a `when` on the platform, app version or device, or some route has a
        /// `minAppVersion`: the asking app (``RequestContext/platform``,
        /// ``RequestContext/appVersion``, ``RequestContext/deviceID``) can change the answer.
        public var app: Bool
        /// Some rule has an `activeFrom` or `activeUntil`: the time of the request can change
        /// the answer.
        public var clock: Bool

        /// A dependence on the asking app, on the clock, both or neither.
        public init(app: Bool, clock: Bool) {
            self.app = app
            self.clock = clock
        }
    }

    /// What answers depend on besides the URL. Computed by walking every rule and the routes'
    /// rare extras: call it once per resolver, not per request.
    public var contextDependence: ContextDependence {
        var dependence = ContextDependence(app: false, clock: false)
        for rule in rewriter.compiled {
            guard let condition = rule.condition else { continue }
            if condition.platforms != nil || condition.versions != nil || condition.basisPoints != nil {
                dependence.app = true
            }
            if condition.from != nil || condition.until != nil { dependence.clock = true }
        }
        if !dependence.app {
            dependence.app = router.routes.hasVersionGatedRoutes
        }
        return dependence
    }
}
