extension Resolver {
    /// Resolves `text` and explains the answer: the resolution exactly as ``resolve(_:context:)``
    /// gives it, and the trace of every rule tried and of the router's walk.
    /// - Throws: ``ResolveError`` like ``resolve(_:context:)``.
    public func explain(_ text: String, context: RequestContext = RequestContext()) throws(ResolveError) -> (Resolution, ResolutionTrace) {
        let resolution = try resolve(text, context: context)
        let input: ParsedURL
        do {
            input = try ParsedURL.parse(text)
        } catch {
            throw ResolveError(message: "invalid URL: \(error.description)")
        }
        let (final, rules) = rewriter.explain(input, context: context)
        let router = router.explain(final, isAppLink: policy.isAppLink(final))
        return (resolution, ResolutionTrace(rules: rules, router: router))
    }
}
